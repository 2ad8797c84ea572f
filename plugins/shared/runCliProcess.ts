import { startProcessGroup } from '../../src/api';
import { LineSplitter } from './lineSplitter';

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
 * parent process), in its own process group behind Switchyard's supervisor
 * (startProcessGroup): on abort the whole group gets SIGTERM, then SIGKILL
 * after a grace period; stragglers the CLI leaves behind are ended before
 * this resolves, and the group dies with Switchyard even on SIGKILL.
 * Resolves once the group is gone and both streams are drained; never rejects.
 */
export async function runCliProcess(options: CliProcessOptions): Promise<CliProcessEnd> {
  const group = startProcessGroup({
    file: options.binary,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    ...(options.stdin !== undefined ? { input: options.stdin } : {}),
  });
  const stderrTail: string[] = [];
  const out = new LineSplitter(MAX_JSON_LINE_BYTES);
  const err = new LineSplitter();
  const onErr = (line: string): void => {
    stderrTail.push(line);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
    options.onStderrLine(line);
  };
  group.stdout.on('data', (chunk: Buffer) => out.push(chunk).forEach(options.onStdoutLine));
  group.stderr.on('data', (chunk: Buffer) => err.push(chunk).forEach(onErr));

  const onAbort = (): void => group.stop();
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  const result = await group.done;
  options.signal.removeEventListener('abort', onAbort);

  const cutLine = out.end();
  const errRest = err.end();
  if (errRest !== undefined) onErr(errRest);
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    spawnError: result.spawnError,
    cutLine,
    stderrTail,
    aborted: options.signal.aborted,
  };
}
