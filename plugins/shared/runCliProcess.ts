import { execa } from 'execa';
import { LineSplitter } from './lineSplitter';

const KILL_GRACE_MS = 2_000;
const STDERR_TAIL_LINES = 5;
/** A CLI's JSON event lines may carry whole tool results: they are cut (and then no longer parse) only past this. */
const MAX_JSON_LINE_BYTES = 8 * 1024 * 1024;

export interface CliProcessOptions {
  binary: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  stdin?: string;
  signal: AbortSignal;
  onStdoutLine(line: string): void;
  onStderrLine(line: string): void;
}

export interface CliProcessEnd {
  exitCode?: number;
  signal?: string;
  /** Why the process could not even start (bad interpreter, permission denied). */
  spawnError?: string;
  /** The last stdout line, left without a newline when the stream stopped. */
  cutLine?: string;
  stderrTail: string[];
  aborted: boolean;
}

/**
 * Runs a CLI agent in the run's worktree with exactly `env` (nothing of the
 * parent process), in its own process group: on abort the whole group gets
 * SIGTERM, then SIGKILL after a grace period; stragglers the CLI leaves
 * behind are ended when it exits. Resolves once the process has exited and
 * both streams are drained; never rejects.
 */
export async function runCliProcess(options: CliProcessOptions): Promise<CliProcessEnd> {
  const child = execa(options.binary, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    ...(options.stdin !== undefined ? { input: options.stdin } : { stdin: 'ignore' as const }),
    reject: false,
    detached: true,
    buffer: false,
  });
  const stderrTail: string[] = [];
  const out = new LineSplitter(MAX_JSON_LINE_BYTES);
  const err = new LineSplitter();
  const onErr = (line: string): void => {
    stderrTail.push(line);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
    options.onStderrLine(line);
  };
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk).forEach(options.onStdoutLine));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk).forEach(onErr));
  // A CLI that exits without reading its prompt closes the pipe; that is not our failure.
  child.stdin?.on('error', () => undefined);

  let killTimer: NodeJS.Timeout | undefined;
  const onAbort = (): void => {
    signalGroup(child.pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    killTimer.unref();
  };
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });

  const result = await child;
  options.signal.removeEventListener('abort', onAbort);
  if (killTimer) clearTimeout(killTimer);
  // Whatever the CLI left running in its group ends with it.
  signalGroup(child.pid, options.signal.aborted ? 'SIGKILL' : 'SIGTERM');

  const cutLine = out.end();
  const errRest = err.end();
  if (errRest !== undefined) onErr(errRest);
  const started = child.pid !== undefined && (result.exitCode !== undefined || result.signal !== undefined);
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    spawnError: started ? undefined : (result.cause instanceof Error ? result.cause.message : result.shortMessage),
    cutLine,
    stderrTail,
    aborted: options.signal.aborted,
  };
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
