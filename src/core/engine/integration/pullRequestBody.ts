import type { Usage } from '../../model/laneEvent';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import { fencedBlock } from '../../text/fencedBlock';
import { gitHubInert } from '../../text/gitHubInert';

/**
 * GitHub's limits, as its REST API answers a longer value (POST /repos/{owner}/{repo}/pulls and PATCH …/pulls/{n},
 * 422 Validation Failed): "body is too long (maximum is 65536 characters)", "title is too long (maximum is 256
 * characters)". Counted here in UTF-16 units, which are never fewer than the characters GitHub counts.
 */
export const MAX_BODY_CHARS = 65_536;
export const MAX_TITLE_CHARS = 256;

export interface PullRequestBodyInput {
  task: Task;
  run: Run;
  /** `git diff --stat` of the change. */
  diffStat: string;
  /** What verification found (the acceptance command and its result, the guards). */
  evidence: readonly string[];
  review?: Run['review'];
  usage?: Usage;
  /** The run's redactor: applied to every piece of text before anything is cut. */
  redact(text: string): string;
}

/**
 * The pull request's description: the spec, the diff stat, the acceptance result, the review, the cost, the run.
 * Everything an agent, a tool or the task's author wrote is redacted, made inert (gitHubInert) and put in its own
 * fenced block; only Switchyard's own words are Markdown. When it would be longer than GitHub takes, the largest
 * blocks are cut (each one still closed), never the headings.
 */
export function pullRequestBody(input: PullRequestBodyInput): string {
  const { task, run } = input;
  const untrusted = (text: string) => gitHubInert(input.redact(text));
  const blocks = [
    untrusted(task.spec.spec.trim() || '(no spec)'),
    untrusted(input.diffStat.trim() || '(no files changed)'),
    ...(task.spec.acceptance ? [untrusted(task.spec.acceptance)] : []),
    ...(input.evidence.length ? [untrusted(input.evidence.join('\n'))] : []),
    ...(input.review?.reasons.length ? [untrusted(input.review.reasons.map((r) => `- ${r}`).join('\n'))] : []),
  ];
  const layout = (b: readonly string[]) => {
    let i = 0;
    const next = () => b[i++]!;
    return [
      `Opened by Switchyard for task \`${task.id}\`, run \`${run.id}\` (lane ${run.lane}, attempt ${run.attempt}).`,
      '## Spec',
      next(),
      '## Change',
      next(),
      '## Verification',
      ...(task.spec.acceptance ? ['Acceptance command:', next()] : ['No acceptance command.']),
      ...(input.evidence.length ? [next()] : []),
      '## Review',
      input.review ? `Lane ${input.review.lane}: **${input.review.verdict}**` : 'No review (review.enabled is off).',
      ...(input.review?.reasons.length ? [next()] : []),
      '## Cost',
      input.usage
        ? `$${input.usage.costUsd.toFixed(4)} (${input.usage.inputTokens} input, ${input.usage.outputTokens} output tokens)`
        : 'Not reported by the lane.',
      '',
      `<sub>switchyard-run: ${run.id}</sub>`,
    ].join('\n\n');
  };
  const fixed = layout(blocks.map(() => '')).length;
  const caps = shares(
    blocks.map((b) => fencedBlock(b).length),
    MAX_BODY_CHARS - fixed,
  );
  return layout(blocks.map((b, i) => fencedBlock(b, caps[i])));
}

/**
 * The pull request's title: the task's title on one line, redacted, made inert, at most 256 characters (cut with
 * `…`). GitHub shows a title as text, and a squash merge's commit message starts with it, so references and closing
 * keywords in it are disarmed too.
 */
export function pullRequestTitle(title: string, redact: (text: string) => string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const line = gitHubInert(redact(title.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim())) || 'Switchyard';
  if (line.length <= MAX_TITLE_CHARS) return line;
  let cut = MAX_TITLE_CHARS - 1;
  const code = line.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${line.slice(0, cut)}…`;
}

/**
 * Splits `total` among blocks that want `wanted` each: a block that wants less than an equal share gets what it
 * wants, the rest share what is left (water-filling), so one huge block cannot crowd out the others.
 */
function shares(wanted: readonly number[], total: number): number[] {
  const caps = wanted.map(() => 0);
  let left = Math.max(0, total);
  const order = wanted.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w);
  order.forEach(({ w, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    caps[i] = Math.min(w, share);
    left -= caps[i]!;
  });
  return caps;
}
