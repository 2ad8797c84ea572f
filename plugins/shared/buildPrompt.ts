import type { LaneRunInput } from '../../src/api';
import { VERDICT_INSTRUCTIONS } from './reviewVerdict';
import type { SalvagedWork } from './salvageContext';

export interface PromptContext {
  /** Set when the CLI resumes its own earlier session. */
  resumingSession?: string;
  salvage?: SalvagedWork;
}

/**
 * The instruction for an agent CLI, built from the task spec: what to do,
 * which files, how it is checked, and, for a later attempt, what the earlier
 * one left behind.
 */
export function buildPrompt(
  input: Pick<LaneRunInput, 'task' | 'attempt' | 'resume' | 'feedback' | 'mode'>,
  context: PromptContext,
): string {
  const { task } = input;
  if (input.mode === 'review') return reviewPrompt(input.task);
  const lines: string[] = [task.title.trim()];
  if (task.spec.trim() && task.spec.trim() !== task.title.trim()) lines.push('', task.spec.trim());
  if (task.files.length) lines.push('', 'Files to work on:', ...task.files.map((f) => `- ${f}`));
  if (task.acceptance) lines.push('', `The task is done when \`${task.acceptance}\` exits 0 in this repository.`);
  lines.push(
    '',
    'Work only in the current directory (a git worktree made for this task). Leave your changes in the ' +
      'working tree; you need not commit them.',
  );

  const why = input.attempt.retryReason ? ` It stopped with: ${input.attempt.retryReason}` : '';
  // Feedback means the earlier attempt ran to its end and was judged (a failed test run exited with a code, a review
  // asked for changes): it was not interrupted.
  const judged = Boolean(input.feedback?.trim());
  if (context.resumingSession) {
    lines.push(
      '',
      judged
        ? `This continues your earlier session for this task (attempt ${input.attempt.attempt}). Your last ` +
            'attempt finished, but its result was not accepted: the feedback below says why.'
        : `This continues your earlier session for this task, which was interrupted before it finished ` +
            `(attempt ${input.attempt.attempt}).${why}`,
      'The working tree holds the work you had done so far. Check it, then finish the task.',
    );
  } else if (context.salvage) {
    lines.push(
      '',
      judged
        ? `An earlier attempt (run ${input.resume?.runId}) finished, but its result was not accepted (the feedback ` +
            'below says why).'
        : `An earlier attempt (run ${input.resume?.runId}) stopped before it finished.${why}`,
      `Its ${judged ? '' : 'partial '}work was kept on branch ${context.salvage.branch}, and this working tree ` +
        `already starts from it. Review it and continue from it instead of starting over.`,
      `Its diff against the task's starting point${context.salvage.truncated ? ' (shortened)' : ''}:`,
      '',
      '```diff',
      context.salvage.diff.trimEnd(),
      '```',
    );
  }
  if (input.feedback?.trim())
    lines.push('', 'Feedback on the previous attempt, to address now:', '', input.feedback.trim());
  return `${lines.join('\n')}\n`;
}

/**
 * A review run: the host's spec holds the task, the diff and the checks' evidence; the CLI reads, changes nothing, and
 * answers with a verdict.
 */
function reviewPrompt(task: LaneRunInput['task']): string {
  return [
    `Review the change another agent made for the task "${task.title.trim()}". The current directory is a ` +
      `git worktree at that change.`,
    'Read and check it; do not change any file.',
    '',
    task.spec.trim(),
    '',
    VERDICT_INSTRUCTIONS,
    '',
  ].join('\n');
}
