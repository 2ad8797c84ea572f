import { rm } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { ownProgram, startOwnWorker } from '../process/ownProgram';
import type { Removal, Removed } from './folderRemoverWorker';

interface Pending {
  path: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The worker of this process: created on first use, null once it could not start or has failed. */
let worker: Worker | null | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

/**
 * Removes a folder and everything in it (a missing one is fine), as `rm -rf` does, on a worker thread. The worker
 * keeps the process alive only while a removal is under way. Where no worker can run, or it failed, the removal is
 * made here, and a process warning says so once (`SWITCHYARD_FOLDER_REMOVER`: on the CLI's stderr, in the extension
 * host's log): a missing `dist/folderRemoverWorker.js` is an installation problem, not a reason to stop.
 */
export function removeFolder(path: string): Promise<void> {
  const w = theWorker();
  if (!w) return rm(path, { recursive: true, force: true });
  return new Promise<void>((resolve, reject) => {
    const id = ++nextId;
    pending.set(id, { path, resolve, reject });
    if (pending.size === 1) w.ref();
    w.postMessage({ id, path } satisfies Removal);
  });
}

function theWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    const w = startOwnWorker(ownProgram(import.meta.filename, 'folderRemoverWorker'));
    w.unref();
    w.on('message', (m: Removed) => {
      const removal = pending.get(m.id);
      if (!removal) return;
      pending.delete(m.id);
      if (!pending.size) w.unref();
      if (m.message === undefined) removal.resolve();
      else removal.reject(Object.assign(new Error(m.message), { code: m.code }));
    });
    const failed = () => {
      if (worker === w) worker = null;
      // What the worker did not answer is removed here.
      const left = [...pending.values()];
      pending.clear();
      for (const r of left) rm(r.path, { recursive: true, force: true }).then(r.resolve, r.reject);
    };
    w.on('error', (error) => {
      warnMainThread(error);
      failed();
    });
    w.on('exit', failed);
    worker = w;
  } catch (error) {
    warnMainThread(error);
    worker = null;
  }
  return worker;
}

let warned = false;

function warnMainThread(error: unknown): void {
  if (warned) return;
  warned = true;
  process.emitWarning(
    `the folder remover's worker thread stopped (${error instanceof Error ? error.message : String(error)}): folders are removed on the main thread from now on`,
    { code: 'SWITCHYARD_FOLDER_REMOVER' },
  );
}
