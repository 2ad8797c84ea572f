import { awaitGroup } from '../../process/awaitGroup';
import { startProcessGroup } from '../../process/startProcessGroup';
import { failureSummary } from '../../text/failureLines';
import { formatMs } from '../../text/formatMs';

export type VerifyOutcome = { ok: true; output: string } | { ok: false; reason: string; output: string };

/** Runs the task's acceptance command in the run's worktree. */
export async function verifyAcceptance(
  command: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<VerifyOutcome> {
  // Its own process group behind the supervisor: a timeout or a cancel ends all of it, and it dies with Switchyard.
  const group = startProcessGroup({ file: command, shell: true, cwd, env });
  const chunks: Buffer[] = [];
  group.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  group.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const { exit, timedOut } = await awaitGroup(group, timeoutMs, signal);
  const canceled = !timedOut && signal?.aborted === true;
  const result = { ...exit, timedOut, isCanceled: canceled };
  const output = exit.spawnError ?? Buffer.concat(chunks).toString('utf8');
  if (result.exitCode === 0 && !result.timedOut && !result.isCanceled) return { ok: true, output };
  // The failing test or the first error line first, then the end of the output (a runner's totals).
  const told = failureSummary(output);
  const why = result.timedOut
    ? `timed out after ${formatMs(timeoutMs)}`
    : result.isCanceled
      ? 'was canceled'
      : `exited with code ${result.exitCode ?? result.signal}`;
  return { ok: false, reason: `acceptance command \`${command}\` ${why}${told ? `: ${told}` : ''}`, output };
}
