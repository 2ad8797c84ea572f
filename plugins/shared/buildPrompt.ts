import type { LaneRunInput } from '../../src/api';
import { VERDICT_INSTRUCTIONS } from './reviewVerdict';
import type { SalvagedWork } from './salvageContext';

export interface PromptContext {
  /** Set when the CLI resumes its own earlier session (in this worktree, where it began). */
  resumingSession?: string;
  /** The earlier run's work (see readSalvagedWork): in this worktree or, per `resume.start`, context only. */
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
    'Work only in the current directory (a git worktree made for this task). Leave your changes in the working tree; you need not commit them.',
  );

  lines.push(...earlierWork(input, context));
  if (input.feedback?.trim())
    lines.push('', 'Feedback on the previous attempt, to address now:', '', input.feedback.trim());
  return `${lines.join('\n')}\n`;
}

/**
 * What the prompt says about the earlier run, derived from where this worktree starts (`resume.start`, decided by the
 * host) and whether the CLI resumes its session: each sentence true of this worktree.
 */
function earlierWork(input: Pick<LaneRunInput, 'attempt' | 'resume' | 'feedback'>, context: PromptContext): string[] {
  const why = input.attempt.retryReason ? ` It stopped with: ${input.attempt.retryReason}` : '';
  // Feedback means the earlier attempt ran to its end and was judged (a failed test run exited with a code, a review
  // asked for changes): it was not interrupted.
  const judged = Boolean(input.feedback?.trim());
  const resume = input.resume;
  const work = context.salvage;
  const diff = (what: string): string[] =>
    work ? [`${what}${work.truncated ? ' (shortened)' : ''}:`, '', '```diff', work.diff.trimEnd(), '```'] : [];
  if (context.resumingSession)
    return [
      '',
      judged
        ? `This continues your earlier session for this task (attempt ${input.attempt.attempt}). Your last attempt finished, but its result was not accepted: the feedback below says why.`
        : `This continues your earlier session for this task, which was interrupted before it finished (attempt ${input.attempt.attempt}).${why}`,
      'The working tree holds the work you had done so far. Check it, then finish the task.',
    ];
  if (!resume) return [];
  if (resume.start === 'target-head' || resume.start === 'base') {
    if (!work) return [];
    const where =
      resume.start === 'target-head'
        ? "This attempt starts from the target branch's current head, which has moved on since that change was made."
        : "This attempt starts from the task's starting point.";
    return [
      '',
      `An earlier attempt (run ${resume.runId}) made a change for this task that was not kept.${why}`,
      `${where} The working tree does NOT hold that change (it is on branch ${work.branch}): make the change again on top of the code as it is now, using its diff only as a reference.`,
      ...diff("That attempt's diff"),
    ];
  }
  if (work)
    return [
      '',
      judged
        ? `An earlier attempt (run ${resume.runId}) finished, but its result was not accepted (the feedback below says why).`
        : `An earlier attempt (run ${resume.runId}) stopped before it finished.${why}`,
      `Its ${judged ? '' : 'partial '}work was kept on branch ${work.branch}, and this working tree already starts from it. Review it and continue from it instead of starting over.`,
      ...diff("Its diff against the task's starting point"),
    ];
  if (resume.start === 'earlier-work')
    return [
      '',
      `This working tree starts from the change of an earlier attempt (run ${resume.runId}${resume.workBranch ? `, branch ${resume.workBranch}` : ''}).${why}`,
      'Check it and fix it rather than starting over.',
    ];
  return [];
}

/**
 * A review run: the host's spec holds the task, the diff and the checks' evidence; the CLI reads, changes nothing, and
 * answers with a verdict.
 */
function reviewPrompt(task: LaneRunInput['task']): string {
  return [
    `Review the change another agent made for the task "${task.title.trim()}". The current directory is a git worktree at that change.`,
    'Read and check it; do not change any file.',
    '',
    task.spec.trim(),
    '',
    VERDICT_INSTRUCTIONS,
    '',
  ].join('\n');
}
