import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { GIT_ENV, git } from './gitExec';

/** Longer than git waits for a ref lock (`core.filesRefLockTimeout`, 100 ms by default), by far. */
const REPLY_TIMEOUT_MS = 30_000;

/** An idle `git update-ref --stdin` is let go after this long (a drain moves the target every few hundred ms). */
const IDLE_MS = 5_000;

const PLAIN = /^[^\s\0]+$/;

interface Session {
  child: ChildProcessWithoutNullStreams;
  key: string;
  out: string;
  answer?: (moved: boolean) => void;
  idle?: NodeJS.Timeout;
}

let session: Session | undefined;
/** One move at a time: each waits for git's answer to the one before. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Moves `ref` to `to` only if it is at `from` (git's compare-and-swap; undefined: only if it does not exist), with the
 * reflog message `message`; true when it moved. One long-lived `git update-ref --stdin` per repository does the moves
 * of a drain (one git process per drain instead of one per integration: `npm run bench -- processcount`), answered
 * asynchronously: nothing waits on the calling thread. git ends its session on a failed update (the ref was not at
 * `from`): the next move starts another. Names that are not plain, or a message with a line break, go to one
 * `git update-ref` of their own.
 */
export function moveRef(cwd: string, ref: string, to: string, from: string | undefined, message: string) {
  const plain =
    PLAIN.test(ref) && PLAIN.test(to) && (from === undefined || PLAIN.test(from)) && !message.includes('\n');
  const next = queue.then(() =>
    plain
      ? moveInSession(cwd, ref, to, from, message)
      : git(cwd, ['update-ref', '-m', message, ref, to, from ?? ''], [0, 1, 128]).then(
          (r) => r.code === 0,
          () => false,
        ),
  );
  queue = next.catch(() => undefined);
  return next;
}

/**
 * Lets the long-lived `git update-ref --stdin` go (the end of a drain): git's input is closed, so it exits and no git
 * process stays in the repository. The next move starts another.
 */
export function releaseRefMoves(): void {
  void queue.then(() => {
    if (session) end(session);
  });
}

function moveInSession(cwd: string, ref: string, to: string, from: string | undefined, message: string) {
  const key = `${cwd}\0${message}`;
  if (session && session.key !== key) end(session);
  const s = session ?? (session = start(cwd, message, key));
  clearTimeout(s.idle);
  s.out = '';
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      // Not known whether it moved: the caller reads the ref again before it decides anything.
      s.child.kill();
      settle(s, false);
    }, REPLY_TIMEOUT_MS);
    s.answer = (moved) => {
      clearTimeout(timer);
      resolve(moved);
    };
    hold(s, true);
    s.child.stdin.write(
      `start\n${from === undefined ? `create ${ref} ${to}` : `update ${ref} ${to} ${from}`}\ncommit\n`,
    );
  });
}

function start(cwd: string, message: string, key: string): Session {
  const child = spawn('git', ['update-ref', '-m', message, '--stdin'], {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    stdio: ['pipe', 'pipe', 'ignore'],
  }) as unknown as ChildProcessWithoutNullStreams;
  const s: Session = { child, key, out: '' };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (data: string) => {
    s.out += data;
    if (/^commit: ok$/m.test(s.out)) settle(s, true);
  });
  const gone = () => {
    if (session === s) session = undefined;
    settle(s, false);
  };
  child.on('error', gone);
  child.on('close', gone);
  child.stdin.on('error', () => undefined);
  return s;
}

function settle(s: Session, moved: boolean): void {
  const answer = s.answer;
  s.answer = undefined;
  // Idle, git's process does not keep this one alive; it is let go after IDLE_MS without a move.
  hold(s, false);
  if (session === s) s.idle = setTimeout(() => end(s), IDLE_MS).unref();
  answer?.(moved);
}

/** Whether git's process (and its pipes) keep this process alive: while an answer is awaited only. */
function hold(s: Session, on: boolean): void {
  for (const handle of [s.child, s.child.stdin, s.child.stdout] as unknown as { ref(): void; unref(): void }[]) {
    if (on) handle.ref?.();
    else handle.unref?.();
  }
}

function end(s: Session): void {
  clearTimeout(s.idle);
  if (session === s) session = undefined;
  s.child.stdin.end();
}
