import lockfile from 'proper-lockfile';

export interface FileLockOptions {
  /** The folder the lock guards (it must exist: the lock file is taken next to what it guards). */
  target: string;
  /** A lock file not touched for this long is taken as left by a dead process. */
  staleMs: number;
  /** How long to wait for a lock another process holds (polled every 5 to 25 ms) before failing. */
  waitMs: number;
  /** The error to throw when the lock cannot be taken (naming what could not be locked). */
  lockError: (error: Error) => Error;
}

/**
 * This process's hold of one lock file: from taking it to letting it go, across the turns handed over in between.
 * Nothing another process would write under the lock changes while it lasts; `writes` counts what this process wrote
 * under it, so a copy read under the hold stays known good while the count is unchanged (see `currentHold`).
 */
export interface LockHold {
  writes: number;
}

interface Turns {
  /** Callers of this process queued for their turn, the current one excluded. */
  waiting: number;
  tail: Promise<void>;
  held?: { hold: LockHold; release: () => Promise<void>; since: number; turns: number };
}

/**
 * A turn that ends while more callers of this process wait hands the lock file straight to the next one, so a busy
 * drain does not take and let go of it (a mkdir, a stat and a rmdir) for every change; at most this many turns or
 * this long in a row, after which it is let go and taken again, giving other processes their chance at it.
 */
export const HANDOFF_TURNS = 8;
const HANDOFF_MS = 100;
/**
 * Another process's lock is polled at most this far apart (backing off from 5 ms): a lock that a busy process hands
 * on is free only for moments between its chains of turns, and a slower poll would rarely see one.
 */
const POLL_MAX_MS = 25;

const locks = new Map<string, Turns>();

/**
 * Runs `fn` holding the lock file `lockPath` (proper-lockfile: a folder made atomically, kept fresh while held).
 * Callers of this process take turns in a queue first, so only other processes contend for the file.
 */
export function withFileLock<T>(lockPath: string, options: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  let turns = locks.get(lockPath);
  if (!turns) {
    turns = { waiting: 0, tail: Promise.resolve() };
    locks.set(lockPath, turns);
  }
  const queue = turns;
  queue.waiting++;
  const mine = queue.tail.then(() => {
    queue.waiting--;
    return turn(queue, lockPath, options, fn);
  });
  const tail = mine.then(
    () => undefined,
    () => undefined,
  );
  queue.tail = tail;
  void tail.then(() => {
    if (queue.tail === tail && !queue.held) locks.delete(lockPath);
  });
  return mine;
}

/** This process's hold of `lockPath` right now, if it has one (a turn runs, or the lock file is being handed over). */
export function currentHold(lockPath: string): LockHold | undefined {
  return locks.get(lockPath)?.held?.hold;
}

async function turn<T>(queue: Turns, lockPath: string, options: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  if (!queue.held) {
    let release: () => Promise<void>;
    const take = (retries: number) =>
      lockfile.lock(options.target, {
        lockfilePath: lockPath,
        realpath: false,
        stale: options.staleMs,
        retries: { retries, minTimeout: 5, maxTimeout: POLL_MAX_MS, factor: 1.5 },
      });
    try {
      // One try first: the retry schedule (hundreds of delays, computed up front) is built only when another process
      // holds the lock.
      release = await take(0).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ELOCKED') throw error;
        return take(Math.ceil(options.waitMs / POLL_MAX_MS));
      });
    } catch (error) {
      throw options.lockError(error as Error);
    }
    queue.held = { hold: { writes: 0 }, release, since: Date.now(), turns: 0 };
  }
  const held = queue.held;
  held.turns++;
  try {
    return await fn();
  } finally {
    const handOver = queue.waiting > 0 && held.turns < HANDOFF_TURNS && Date.now() - held.since < HANDOFF_MS;
    if (!handOver) {
      queue.held = undefined;
      await held.release().catch(() => undefined);
    }
  }
}
