import { awaitGroup } from '../process/awaitGroup';
import { startProcessGroup } from '../process/startProcessGroup';
import { failureLeadLines } from '../text/failureLines';

export interface SetupCommandExit {
  ok: boolean;
  /** What went wrong, e.g. `exited with code 1`, `timed out after 600 s`. */
  why?: string;
  canceled?: boolean;
  /** The last lines of its output (stdout and stderr together). */
  tail: string[];
  /** On failure, the lines that say what failed (the first error line, e.g. npm's cause), from its first lines. */
  lead?: string[];
}

const TAIL_LINES = 10;
/** How many of its first lines are kept to find what failed (npm prints its cause first, then its usage). */
const HEAD_LINES = 400;

/**
 * Runs one `worktree.setup` command line in the shell, in its own process
 * group behind the supervisor (it dies with Switchyard; a timeout or a cancel
 * ends all of it), each output line passed to `onLine`.
 */
export async function runSetupCommand(
  command: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  onLine: (stream: 'stdout' | 'stderr', line: string) => void,
): Promise<SetupCommandExit> {
  const group = startProcessGroup({ file: command, shell: true, cwd, env });
  const tail: string[] = [];
  const head: string[] = [];
  const lines = (stream: 'stdout' | 'stderr') => {
    let rest = '';
    return {
      data: (chunk: Buffer): void => {
        const parts = (rest + chunk.toString('utf8')).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) emit(stream, line);
      },
      end: (): void => {
        if (rest) emit(stream, rest);
        rest = '';
      },
    };
  };
  const emit = (stream: 'stdout' | 'stderr', line: string): void => {
    const clean = line.replace(/\r$/, '');
    onLine(stream, clean);
    if (head.length < HEAD_LINES) head.push(clean);
    if (clean.trim()) tail.push(clean);
    if (tail.length > TAIL_LINES) tail.shift();
  };
  const out = lines('stdout');
  const err = lines('stderr');
  group.stdout.on('data', out.data);
  group.stderr.on('data', err.data);
  const { exit, timedOut } = await awaitGroup(group, timeoutMs, signal);
  out.end();
  err.end();
  if (exit.spawnError !== undefined) return { ok: false, why: `could not start: ${exit.spawnError}`, tail };
  if (signal?.aborted && !timedOut) return { ok: false, why: 'was canceled', canceled: true, tail };
  const lead = failureLeadLines(head.join('\n'));
  if (timedOut) return { ok: false, why: `timed out after ${Math.round(timeoutMs / 1000)} s`, tail, lead };
  if (exit.exitCode === 0) return { ok: true, tail };
  return { ok: false, why: `exited with code ${exit.exitCode ?? exit.signal}`, tail, lead };
}
