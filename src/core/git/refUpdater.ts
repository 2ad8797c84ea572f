import { Worker } from 'node:worker_threads';
import { GIT_ENV, gitSync } from './gitExec';

/** Longer than git waits for a ref lock (`core.filesRefLockTimeout`, 100 ms by default), by far. */
const REPLY_TIMEOUT_MS = 30_000;

/** An idle `git update-ref --stdin` is let go after this long (a drain moves the target every few hundred ms). */
const IDLE_MS = 5_000;

// The worker owns one `git update-ref --stdin` per repository and answers each compare-and-swap through the shared
// flag (1: moved, 2: not moved), so the caller can wait for it synchronously. git ends a session on a failed update
// (the ref was not at the old value): the next request starts a new one. A release (the end of a drain), or IDLE_MS
// without a request, closes git's input once no answer is awaited, so git exits and no process is left in the
// repository.
const WORKER_SOURCE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const flag = new Int32Array(workerData.flag);
let child;
let out = '';
let waiting = false;
let releasing = false;
let idle;
function release() {
  releasing = false;
  if (!child) return;
  child.c.stdin.end();
  child = undefined;
}
function settle(ok) {
  if (!waiting) return;
  waiting = false;
  Atomics.store(flag, 0, ok ? 1 : 2);
  Atomics.notify(flag, 0);
  if (releasing) release();
}
function start(cwd, env, message) {
  const c = spawn('git', ['update-ref', '-m', message, '--stdin'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  c.stdout.setEncoding('utf8');
  c.stdout.on('data', (d) => {
    out += d;
    if (/^commit: ok$/m.test(out)) settle(true);
  });
  const gone = () => {
    if (!child || child.c !== c) return;
    child = undefined;
    settle(false);
  };
  c.on('error', gone);
  c.on('close', gone);
  c.stdin.on('error', () => undefined);
  return { c, key: cwd + '\\0' + message };
}
parentPort.on('message', (m) => {
  clearTimeout(idle);
  idle = setTimeout(() => { if (waiting) releasing = true; else release(); }, workerData.idleMs);
  if (m.release) {
    if (waiting) releasing = true;
    else release();
    return;
  }
  releasing = false;
  if (m.stop) {
    if (child) child.c.kill();
    child = undefined;
    return;
  }
  if (!child || child.key !== m.cwd + '\\0' + m.message) {
    if (child) child.c.stdin.end();
    child = start(m.cwd, m.env, m.message);
  }
  if (m.warm) return;
  out = '';
  waiting = true;
  child.c.stdin.write(m.lines);
});
`;

let worker: { worker: Worker; flag: Int32Array } | null | undefined;

function theWorker(): { worker: Worker; flag: Int32Array } | null {
  if (worker !== undefined) return worker;
  try {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { flag: flag.buffer, idleMs: IDLE_MS } });
    w.unref();
    w.on('error', () => {
      worker = null;
    });
    worker = { worker: w, flag };
  } catch {
    worker = null;
  }
  return worker;
}

/**
 * Starts what `updateRefSync` uses (the worker and its git process) ahead of time, so the first update does not wait
 * for them to start.
 */
export function warmRefUpdates(cwd: string, message: string): void {
  theWorker()?.worker.postMessage({ warm: true, cwd, message, env: { ...process.env, ...GIT_ENV } });
}

/**
 * Lets the long-lived `git update-ref --stdin` go once it has answered (the end of a drain); the next update starts
 * another.
 */
export function releaseRefUpdates(): void {
  worker?.worker.postMessage({ release: true });
}

const PLAIN = /^[^\s\0]+$/;

/**
 * Moves `ref` to `to` only if it is at `from` (git's compare-and-swap; undefined: only if it does not exist), with the
 * reflog message `message`, and waits for git's answer synchronously, so it can run inside a store transaction. One
 * long-lived `git update-ref --stdin` per repository does it, not a process per update; it runs in a worker thread
 * that the caller's thread waits on (about the time git takes, instead of a fork of this process). Where that worker
 * cannot run, or the names are not plain, one `git update-ref` is started synchronously, as before. True when the ref
 * moved.
 */
export function updateRefSync(
  cwd: string,
  ref: string,
  to: string,
  from: string | undefined,
  message: string,
): boolean {
  const plain = PLAIN.test(ref) && PLAIN.test(to) && (from === undefined || PLAIN.test(from));
  const w = plain && !message.includes('\n') ? theWorker() : null;
  // An empty old value: only if the ref does not exist yet (whatever the object format).
  if (!w) return gitSync(cwd, ['update-ref', '-m', message, ref, to, from ?? '']) === 0;
  Atomics.store(w.flag, 0, 0);
  w.worker.postMessage({
    cwd,
    message,
    env: { ...process.env, ...GIT_ENV },
    lines: `start\n${from === undefined ? `create ${ref} ${to}` : `update ${ref} ${to} ${from}`}\ncommit\n`,
  });
  const waited = Atomics.wait(w.flag, 0, 0, REPLY_TIMEOUT_MS);
  if (waited === 'timed-out') {
    // Not known whether it moved: the caller reads the ref again (a later round finds its own commit there).
    w.worker.postMessage({ stop: true });
    return false;
  }
  return Atomics.load(w.flag, 0) === 1;
}
