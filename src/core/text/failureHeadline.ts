/** A failure in plain words: what went wrong first, then where it came from. */
export interface FailureHeadline {
  /** The reason itself, e.g. the agent's own last error line ("ANTHROPIC_API_KEY is not set"). */
  reason: string;
  /** How the agent ended, when that is all the rest says ("exit code 1"). */
  how?: string;
}

/**
 * A command lane's failure: "`cmd` failed with exit code 1: lead | lines; stderr: a | b" (plugins/command; the lead,
 * the first error its output names, only when one was found).
 */
const COMMAND_FAILED =
  /^`[^`]*` failed with (exit code -?\d+|signal \w+)(?:: ([\s\S]*?))?(?:; stderr: ([\s\S]*)| \(no stderr output\))$/;
/** What the task record appends to a run's reason: the retry verdict, the attempts spent, a fallback lane. */
const TASK_NOTES = /\s*\((?:not retried|attempt \d+ failed|\d+ of \d+ attempts?|lane \S+ \d+)[\s\S]*\)$/;

/**
 * The reason of a failed run as a person reads it first: the agent's own last error (a command lane's stderr, not the
 * command line and its exit code), without the retry policy's notes ("(not retried: permanent (key-missing: …))") or
 * a breaker's news ("; breaker on lane … closed after …"). `raw` is the run's recorded reason (or the task's).
 */
export function failureHeadline(raw: string): FailureHeadline {
  const reason = raw
    .replace(/;\s*breaker on lane [^;]*/g, '')
    .replace(TASK_NOTES, '')
    .trim();
  const command = COMMAND_FAILED.exec(reason);
  if (!command) return { reason: reason || 'no reason recorded' };
  const how = command[1]!;
  const lines = (text: string | undefined): string[] =>
    (text ?? '')
      .split(' | ')
      .map((l) => l.trim())
      .filter(Boolean);
  // The lead (the first error the output names) when the lane found one; else the last lines of stderr, which hold
  // the error (the first of them is usually its sentence).
  const lead = lines(command[2]);
  if (lead.length) return { reason: lead.join('; '), how };
  const stderr = lines(command[3]);
  return stderr.length ? { reason: stderr.join('; '), how } : { reason: `the agent ended with ${how}`, how };
}
