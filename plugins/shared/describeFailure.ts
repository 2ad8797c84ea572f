import type { CliProcessEnd } from './runCliProcess';

const MAX_CUT_SHOWN = 120;
const MAX_ERROR_SHOWN = 2_000;

export interface FailureFacts {
  /** The CLI's name as the user knows it, e.g. `claude`. */
  cli: string;
  end: CliProcessEnd;
  /** The CLI's own error: its error result, failed turn or error event. */
  cliError?: string;
  /** Whether the CLI reported the end of its work (a result / completed turn). */
  finished: boolean;
}

/**
 * One line that says what went wrong, the real error first: the CLI's own
 * error, a stream cut mid-line or ended early, how the process ended (exit
 * code or signal), and the last stderr lines. This is the run's failureReason.
 */
export function describeCliFailure(facts: FailureFacts): string {
  const { cli, end } = facts;
  const parts: string[] = [];
  if (facts.cliError) parts.push(`${cli} reported: ${clip(facts.cliError, MAX_ERROR_SHOWN)}`);
  if (end.spawnError) parts.push(`${cli} could not be started: ${end.spawnError}`);
  else if (!facts.finished && end.cutLine !== undefined) {
    parts.push(
      `${cli}'s stream stopped mid-line after ${end.cutLine.length} characters, before a result: ${JSON.stringify(clip(end.cutLine, MAX_CUT_SHOWN))}`,
    );
  } else if (!facts.finished && !facts.cliError) parts.push(`${cli}'s stream ended without a result`);
  if (end.aborted) parts.push(`${cli} was stopped (${how(end)}) because the run was aborted`);
  else if (end.signal) parts.push(`${cli} was killed by ${end.signal}`);
  else if (end.exitCode !== undefined) parts.push(`${cli} exited with code ${end.exitCode}`);
  const tail = end.stderrTail
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' | ');
  if (!end.spawnError) parts.push(tail ? `stderr: ${clip(tail, MAX_ERROR_SHOWN)}` : 'no stderr output');
  return parts.join('; ');
}

function how(end: CliProcessEnd): string {
  return end.signal ? `signal ${end.signal}` : `exit code ${end.exitCode ?? 'unknown'}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
