import type { Usage } from '../model/laneEvent';
import type { Run } from '../model/run';
import type { Task } from '../model/task';

const MAX_BODY = 60_000;
const MAX_SPEC = 20_000;

export interface PullRequestBodyInput {
  task: Task;
  run: Run;
  /** `git diff --stat` of the change. */
  diffStat: string;
  /** What verification found (the acceptance command and its result, the guards). */
  evidence: readonly string[];
  review?: Run['review'];
  usage?: Usage;
}

/** The pull request's description: the spec, the diff stat, the acceptance result, the review, the cost, the run. */
export function pullRequestBody(input: PullRequestBodyInput): string {
  const { task, run } = input;
  const spec = task.spec.spec.trim() || '(no spec)';
  const parts = [
    `Opened by Switchyard for task \`${task.id}\`, run \`${run.id}\` (lane ${run.lane}, attempt ${run.attempt}).`,
    '## Spec',
    fence(spec.length > MAX_SPEC ? `${spec.slice(0, MAX_SPEC)}\n… (${spec.length - MAX_SPEC} more characters)` : spec),
    '## Change',
    fence(input.diffStat.trim() || '(no files changed)'),
    '## Verification',
    task.spec.acceptance
      ? `Acceptance command: \`${task.spec.acceptance.replace(/`/g, "'")}\``
      : 'No acceptance command.',
    ...input.evidence.map((e) => `- ${e.split('\n').join(' ')}`),
    '## Review',
    input.review
      ? `Lane ${input.review.lane}: **${input.review.verdict}**` +
        (input.review.reasons.length ? `\n${input.review.reasons.map((r) => `- ${r}`).join('\n')}` : '')
      : 'No review (review.enabled is off).',
    '## Cost',
    input.usage
      ? `$${input.usage.costUsd.toFixed(4)} (${input.usage.inputTokens} input, ${input.usage.outputTokens} output ` +
        'tokens)'
      : 'Not reported by the lane.',
    '',
    `<sub>switchyard-run: ${run.id}</sub>`,
  ];
  const body = parts.join('\n\n');
  return body.length > MAX_BODY ? `${body.slice(0, MAX_BODY)}\n\n… (cut)` : body;
}

function fence(text: string): string {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}\n${text}\n${ticks}`;
}
