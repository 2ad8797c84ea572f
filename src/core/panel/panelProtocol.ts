/**
 * The messages between the queue panel's webview and the extension host,
 * shared by both sides and parsed by each side where they arrive. Built on
 * `zod/mini` (tree-shakable) so the webview bundle stays small; this module
 * must import nothing that pulls in the full `zod` or `vscode`.
 *
 * The host sends one `snapshot` (the whole view) when the webview is ready,
 * then `patch`es: task upserts and removals by id, and only the sections that
 * changed. Each carries `seq`; a patch names the `base` it applies to, so a
 * webview that missed one asks for a fresh snapshot instead of drifting.
 */
import * as z from 'zod/mini';
import type { RunState as CoreRunState } from '../model/runStates';
import { STAGES } from '../model/stages';
import type { TaskState as CoreTaskState } from '../model/taskStates';

/**
 * The scheduler's cost term, for the panel's own ordering of ready tasks (the webview imports nothing of the core but
 * this file).
 */

// The task and run state lists are repeated here (importing the core enums would bundle the full zod); the checks
// below keep them equal. The stages come from their one zod-free list.
export const PANEL_TASK_STATES = [
  'DRAFT',
  'READY',
  'RUNNING',
  'VERIFYING',
  'REVIEWING',
  'INTEGRATING',
  'AWAITING_CI',
  'DONE',
  'BLOCKED',
  'CANCELED',
  'CHANGES_REQUESTED',
  'FAILED',
] as const;
export const PANEL_RUN_STATES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'STALE_RESULT'] as const;
/** The pipeline's columns: the WIP stages, then AWAITING_CI (pull requests waiting for their required checks). */
export const PANEL_STAGES = STAGES;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const taskStatesMatch: Same<(typeof PANEL_TASK_STATES)[number], CoreTaskState> = true;
const runStatesMatch: Same<(typeof PANEL_RUN_STATES)[number], CoreRunState> = true;
void taskStatesMatch;
void runStatesMatch;

const str = z.string();
const num = z.number();
const int = z.int();
const opt = <T extends z.core.SomeType>(t: T) => z.optional(t);
const orNull = <T extends z.core.SomeType>(t: T) => z.nullable(t);

export const TaskState = z.enum(PANEL_TASK_STATES);
export const RunState = z.enum(PANEL_RUN_STATES);
export const Stage = z.enum(PANEL_STAGES);

/** Why a READY task is not in the scheduler's ready set. */
export const ReadyWait = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('deps'), on: z.array(str) }),
  z.strictObject({ kind: z.literal('backoff'), until: str }),
  z.strictObject({ kind: z.literal('file'), file: str, heldBy: str }),
]);
export type ReadyWait = z.infer<typeof ReadyWait>;

/** A task's latest run, as its row shows it. */
export const RunBrief = z.strictObject({
  id: str,
  state: RunState,
  attempt: int,
  startedAt: str,
  durationMs: opt(num),
  costUsd: opt(num),
  failureCode: opt(str),
});
export type RunBrief = z.infer<typeof RunBrief>;

/** A required check of a pull request, as the panel shows it. */
export const PanelCheck = z.strictObject({
  name: str,
  state: z.enum(['missing', 'pending', 'success', 'failure']),
  conclusion: opt(str),
});
export type PanelCheck = z.infer<typeof PanelCheck>;

/** A task's pull request on its row: number, state, its required checks. The URL is text; the host opens it. */
export const PanelPullRequest = z.strictObject({
  number: int,
  url: str,
  state: z.enum(['open', 'merged', 'closed']),
  checks: z.array(PanelCheck),
});
export type PanelPullRequest = z.infer<typeof PanelPullRequest>;

/** One row of the task list. Nothing in it changes with the clock, so unchanged tasks are never re-sent. */
export const PanelTask = z.strictObject({
  id: str,
  /** The task number, for ordering. */
  n: int,
  title: str,
  state: TaskState,
  lane: str,
  /** The lane was set on the task (not the project default). */
  laneOverride: z.boolean(),
  priority: int,
  attempts: int,
  /** When the task last changed state (for READY: since when it waits). */
  since: str,
  /** READY only: the scheduler's time-invariant order key without the lane's cost penalty (larger goes first). */
  key: opt(num),
  wait: opt(ReadyWait),
  urgent: opt(z.strictObject({ owner: str, reason: str, expiresAt: str })),
  /** How many tasks depend on this one. */
  unblocks: opt(int),
  blockedBy: opt(z.array(str)),
  failureReason: opt(str),
  run: opt(RunBrief),
  runs: int,
  /** The task's pull request (pull-request mode), if it has one. */
  pr: opt(PanelPullRequest),
});
export type PanelTask = z.infer<typeof PanelTask>;

export const Header = z.strictObject({
  repo: str,
  defaultLane: str,
  agingPerMinute: num,
  total: int,
  counts: z.record(str, int),
  /**
   * The points each lane's estimated cost (its average per SUCCEEDED run, latest 20) takes off its READY tasks'
   * scores: priorityScore's costPenalty, so a task's score is its `key` minus its lane's penalty plus the aging.
   */
  lanePenalty: z.record(str, num),
  /** Run worktrees on disk: how many, and their size at the last drain (absent when unknown). */
  worktrees: opt(z.strictObject({ count: int, bytes: opt(num) })),
  /**
   * The view holds only the newest `shown` finished tasks (`total` and `counts` count what it holds); `more`: older
   * ones are in the history, and a `more` message asks for the next page. Absent: every task.
   */
  finished: opt(z.strictObject({ shown: int, more: z.boolean() })),
});
export type Header = z.infer<typeof Header>;

export const Pipeline = z.strictObject({
  /** `limit` is absent for a stage without a WIP limit in the settings (AWAITING_CI before one is set). */
  stages: z.array(z.strictObject({ stage: Stage, count: int, limit: opt(int), tasks: z.array(str) })),
  /** Why no new run would start now: a full downstream stage (backpressure) or a full RUNNING stage. */
  blocked: orNull(z.strictObject({ backpressure: z.boolean(), reason: str })),
  /** READY tasks (their number), whatever their lane. */
  ready: int,
  /**
   * Lanes whose circuit breaker holds their READY tasks back now (open in its cooldown, or probing with its allowance
   * in flight): the lane, how many READY tasks wait for it, and the breaker's own reason.
   */
  paused: z.array(z.strictObject({ lane: str, ready: int, reason: str })),
});
export type Pipeline = z.infer<typeof Pipeline>;

export const TraceDecision = z.strictObject({ ts: str, kind: str, message: str, task: opt(str), run: opt(str) });
export type TraceDecision = z.infer<typeof TraceDecision>;

export const StageWait = z.strictObject({ waiting: int, oldestMs: num });

/** The scheduler's side of `.switchyard/trace.jsonl`; `available: false` until a drain has written one. */
export const Scheduler = z.discriminatedUnion('available', [
  z.strictObject({ available: z.literal(false) }),
  z.strictObject({
    available: z.literal(true),
    /** The latest scheduler decisions (backpressure, breakers, waits, starts), newest first. */
    decisions: z.array(TraceDecision),
    /** The last backpressure decision, if the trace has one. */
    lastBackpressure: orNull(TraceDecision),
    signals: orNull(
      z.strictObject({
        ts: str,
        stageWait: z.record(str, StageWait),
        failureStreak: opt(z.strictObject({ code: str, count: int })),
        burnRateUsdPerHour: opt(num),
      }),
    ),
    drain: orNull(z.strictObject({ ts: str, kind: str, message: str })),
  }),
]);
export type Scheduler = z.infer<typeof Scheduler>;

export const Breaker = z.strictObject({
  key: str,
  /** `probing` is the stored `half-open`. */
  state: z.enum(['closed', 'open', 'probing']),
  since: str,
  code: opt(str),
  opened: int,
  successes: int,
  /** Probing: how many runs may be in flight at once. */
  allowance: opt(int),
  /** Open: when the cooldown ends and a probe may run. */
  probeAfter: opt(str),
  recent: z.array(z.strictObject({ code: str, at: str })),
});
export type Breaker = z.infer<typeof Breaker>;

export const Breakers = z.strictObject({
  lanes: z.array(Breaker),
  settings: z.strictObject({ failures: int, windowMs: num, cooldownMs: num, closeAfter: int }),
});
export type Breakers = z.infer<typeof Breakers>;

export const LaneRow = z.strictObject({
  lane: str,
  isDefault: z.boolean(),
  tasks: int,
  runs: int,
  completed: int,
  completionRate: orNull(num),
  verifyPassRate: orNull(num),
  wallTimeP50Ms: orNull(num),
  wallTimeP90Ms: orNull(num),
  /** The tasks the wall-time percentiles are over (those with no run of the lane still going). */
  wallTimeTasks: int,
  costUsd: num,
  /** Runs that reported usage; a lane that reports none has no cost figures. */
  costReported: int,
  costPerCompletedUsd: orNull(num),
  attemptsPerTask: orNull(num),
  /** Tasks the user canceled: apart from the completion rate. */
  canceled: int,
  /** Runs that reached an acceptance command: the sample of verifyPassRate (0: no rate). */
  verifyRuns: int,
});
export type LaneRow = z.infer<typeof LaneRow>;

export const Canary = z.strictObject({
  lane: str,
  baselineLane: str,
  startedAt: str,
  windowEnds: str,
  verdict: z.enum(['hold', 'continue', 'expand-candidate', 'not-enough-data']),
  why: str,
});
export type Canary = z.infer<typeof Canary>;

export const Lanes = z.strictObject({
  rows: z.array(LaneRow),
  canary: orNull(Canary),
  /**
   * What the figures are over: the unfinished tasks and the `finished` newest finished ones (`more`: older ones were
   * not counted). Absent: every recorded run.
   */
  over: opt(z.strictObject({ finished: int, more: z.boolean() })),
});
export type Lanes = z.infer<typeof Lanes>;

export const GuardRow = z.strictObject({
  ts: str,
  guard: str,
  verdict: z.enum(['pass', 'block', 'warn', 'error']),
  rule: str,
  durationMs: num,
  subject: opt(str),
  runId: opt(str),
  evidence: z.array(z.strictObject({ where: opt(str), message: str })),
  error: opt(str),
});
export type GuardRow = z.infer<typeof GuardRow>;

export const Guards = z.strictObject({
  /** Verdicts recorded in `.switchyard/guards.jsonl` (all of them, not only those shown). */
  total: int,
  /** The newest verdicts, newest first. */
  recent: z.array(GuardRow),
  /** A line that could not be read, if any (the rest is still shown). */
  problem: opt(str),
});
export type Guards = z.infer<typeof Guards>;

export const SECTION_NAMES = ['header', 'pipeline', 'scheduler', 'breakers', 'lanes', 'guards'] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

const sectionShape = {
  header: Header,
  pipeline: Pipeline,
  scheduler: Scheduler,
  breakers: Breakers,
  lanes: Lanes,
  guards: Guards,
};

export const PanelView = z.strictObject({ ...sectionShape, tasks: z.array(PanelTask) });
export type PanelView = z.infer<typeof PanelView>;
export type PanelSections = Omit<PanelView, 'tasks'>;

export const DetailRun = z.strictObject({
  id: str,
  attempt: int,
  lane: str,
  state: RunState,
  /** A RUNNING run that only waits for its pull request's required checks (shownRunState): shown as AWAITING_CI. */
  awaitingCi: opt(z.literal(true)),
  startedAt: str,
  durationMs: opt(num),
  costUsd: opt(num),
  /** `input` is the whole prompt; `cacheRead` and `cacheWrite` its parts read from and written to the prompt cache. */
  tokens: opt(z.strictObject({ input: int, output: int, cacheRead: opt(int), cacheWrite: opt(int) })),
  /** The tokens as the CLI and the tree write them, with the cache split: `5210+120 tokens (4300 cache read (83%)…`. */
  tokensText: opt(str),
  failureCode: opt(str),
  failureReason: opt(str),
  retryReason: opt(str),
  resumes: opt(int),
  resumeCounts: opt(z.strictObject({ replayed: int, resent: int, rerun: int, uncertain: int })),
  salvage: opt(z.strictObject({ branch: str, files: int })),
  review: opt(z.strictObject({ lane: str, verdict: str, reasons: z.array(str) })),
  integration: opt(z.strictObject({ branch: str, commit: str })),
  diffStat: opt(z.strictObject({ files: int, insertions: int, deletions: int })),
  branch: str,
  worktree: str,
  hasDiff: z.boolean(),
  hasWorktree: z.boolean(),
});
export type DetailRun = z.infer<typeof DetailRun>;

/**
 * One entry of a run's transcript: the lane's text, a tool call with its result (shown collapsed), a burst of output
 * lines (collapsed), or a usage report. Inputs and outputs are previews, cut long.
 */
export const TranscriptEntry = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: str }),
  z.strictObject({ kind: z.literal('tool'), name: str, input: str, output: opt(str), isError: z.boolean() }),
  z.strictObject({ kind: z.literal('log'), stream: str, lines: z.array(str) }),
  z.strictObject({ kind: z.literal('usage'), text: str }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** The transcript of a task's latest run: its last entries, and how many earlier ones were left out. */
export const RunTranscript = z.strictObject({ runId: str, entries: z.array(TranscriptEntry), omitted: int });
export type RunTranscript = z.infer<typeof RunTranscript>;

export const TaskDetail = z.strictObject({
  id: str,
  title: str,
  state: TaskState,
  lane: str,
  spec: str,
  files: z.array(str),
  acceptance: opt(str),
  dependsOn: z.array(str),
  failureReason: opt(str),
  feedback: opt(str),
  runs: z.array(DetailRun),
  guards: z.array(GuardRow),
  /**
   * Decision lines of the task's runs (`runs/<id>/events.jsonl`) and the scheduler's about it (trace), oldest first.
   */
  decisions: z.array(TraceDecision),
  /** The task's pull request with where it goes, its head, merge commit and warnings. */
  pullRequest: opt(
    z.strictObject({
      ...PanelPullRequest.shape,
      repository: opt(str),
      head: opt(str),
      base: opt(str),
      headSha: opt(str),
      mergeCommit: opt(str),
      warnings: z.array(str),
    }),
  ),
  /** What the latest run's lane said and did (absent before its first event). */
  transcript: opt(RunTranscript),
});
export type TaskDetail = z.infer<typeof TaskDetail>;

/** Host → webview. */
export const HostMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('snapshot'), seq: int, view: PanelView }),
  z.strictObject({
    type: z.literal('patch'),
    seq: int,
    base: int,
    upsert: z.array(PanelTask),
    remove: z.array(str),
    sections: z.strictObject({
      header: opt(Header),
      pipeline: opt(Pipeline),
      scheduler: opt(Scheduler),
      breakers: opt(Breakers),
      lanes: opt(Lanes),
      guards: opt(Guards),
    }),
  }),
  z.strictObject({ type: z.literal('detail'), taskId: str, detail: orNull(TaskDetail), problem: opt(str) }),
  z.strictObject({ type: z.literal('error'), message: str }),
]);
export type HostMessage = z.infer<typeof HostMessage>;
export type PanelPatch = Extract<HostMessage, { type: 'patch' }>;

/** The palette commands the panel may run, with the id they take. */
export const PANEL_COMMANDS = [
  'runQueue',
  'runTask',
  'cancelTask',
  'retryTask',
  'setTaskLane',
  'showRunDiff',
  'openWorktree',
  'refresh',
  'openPullRequest',
  'openChanges',
  'mergeIntoCurrentBranch',
  'checkOutBranch',
] as const;
export type PanelCommand = (typeof PANEL_COMMANDS)[number];

/** Webview → host. */
export const WebviewMessage = z.discriminatedUnion('type', [
  /** The page loaded (or reloaded): send a snapshot. `selected` is the task the restored page shows. */
  z.strictObject({ type: z.literal('ready'), selected: opt(str) }),
  z.strictObject({ type: z.literal('select'), taskId: orNull(str) }),
  z.strictObject({ type: z.literal('command'), command: z.enum(PANEL_COMMANDS), taskId: opt(str), runId: opt(str) }),
  /** Show the next page of finished tasks (the header's `finished.more`). */
  z.strictObject({ type: z.literal('more') }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

/** The first problem of a failed parse, with where it is: `view.tasks.3.state: Invalid option…`. */
export function describeIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown problem';
  const where = issue.path.map(String).join('.');
  const more = error.issues.length > 1 ? ` (+${error.issues.length - 1} more)` : '';
  return `${where ? `${where}: ` : ''}${issue.message}${more}`;
}
