import { execa } from 'execa';
import { formatMs } from '../lanes/runLane';

export type VerifyOutcome = { ok: true; output: string } | { ok: false; reason: string; output: string };

/** Runs the task's acceptance command in the run's worktree. */
export async function verifyAcceptance(
  command: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<VerifyOutcome> {
  const result = await execa(command, {
    cwd,
    env,
    extendEnv: false,
    shell: true,
    reject: false,
    all: true,
    timeout: timeoutMs,
    cancelSignal: signal,
    forceKillAfterDelay: 2_000,
    stdin: 'ignore',
  });
  const output = String(result.all ?? '');
  if (result.exitCode === 0 && !result.timedOut && !result.isCanceled) return { ok: true, output };
  const tail = lastLines(output, 5);
  const why = result.timedOut
    ? `timed out after ${formatMs(timeoutMs)}`
    : result.isCanceled
      ? 'was canceled'
      : `exited with code ${result.exitCode ?? result.signal}`;
  return { ok: false, reason: `acceptance command \`${command}\` ${why}${tail ? `: ${tail}` : ''}`, output };
}

export function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join(' | ').trim();
}
