import { mkdirSync, rmdirSync, statSync, utimesSync, type Stats } from 'node:fs';

type Callback<T = void> = (error: NodeJS.ErrnoException | null, value?: T) => void;

/** Runs a synchronous file-system call and reports to `callback` on the next tick, as the callback API would. */
function deferred<T>(call: () => T, callback: Callback<T>): void {
  let value: T;
  try {
    value = call();
  } catch (error) {
    process.nextTick(callback, error as NodeJS.ErrnoException);
    return;
  }
  process.nextTick(callback, null, value);
}

/**
 * The file system proper-lockfile locks through (its `fs` option): the same calls it makes (mkdir, stat, utimes,
 * rmdir), made synchronously and answered on the next tick. A lock is a directory beside the state, so each call is a
 * few microseconds of metadata work; through the thread pool each one cost several times that in hand-offs, and a
 * drain takes a lock several times per task. One object for every lock, so proper-lockfile's mtime-precision probe
 * (cached on the object) runs once per process.
 */
export const lockFs = {
  mkdir(path: string, callback: Callback): void {
    deferred(() => void mkdirSync(path), callback);
  },
  stat(path: string, callback: Callback<Stats>): void {
    deferred(() => statSync(path), callback);
  },
  utimes(path: string, atime: Date, mtime: Date, callback: Callback): void {
    deferred(() => utimesSync(path, atime, mtime), callback);
  },
  rmdir(path: string, callback: Callback): void {
    deferred(() => rmdirSync(path), callback);
  },
  rmdirSync(path: string): void {
    rmdirSync(path);
  },
};
