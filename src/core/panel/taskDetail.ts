import { shownRunState } from '../model/runStates';
import { access } from 'node:fs/promises';
import { diffPath, eventsPath, readRunLog, type RunLogLine } from '../store/runFiles';
import type { TraceLine } from '../store/traceLog';
import type { GuardEvent } from '../guards/guardLog';
import type { Run } from '../model/run';
import type { ProjectState } from '../store/projectState';
import { guardRow } from './guardRows';
import type { DetailRun, TaskDetail, TraceDecision } from './panelProtocol';
import { traceDecision } from './schedulerTrace';
import { formatTokens } from '../text/usageText';
import { taskPullRequest } from '../model/taskPullRequest';
import { panelPullRequest } from './buildPanelView';
import { runTranscript } from './runTranscript';

/** What a task's detail needs besides the state: its runs' logs and which of their files exist. */
export interface DetailInputs {
  runLogs: ReadonlyMap<string, readonly RunLogLine[]>;
  /** Runs whose captured diff exists. */
  diffs: ReadonlySet<string>;
  /** Runs whose worktree folder exists. */
  worktrees: ReadonlySet<string>;
  guards: readonly GuardEvent[];
  trace?: readonly TraceLine[];
}

/**
 * One task's history for the panel: each run (attempt, lane, duration, cost,
 * state, the real failure reason, resumed-call counts, salvage, review,
 * integration, whether its diff and worktree can be opened), its pull request and required checks, the guard
 * verdicts on its runs, and the decisions about it from its runs' logs and
 * the scheduler trace, oldest first. Undefined for an unknown task.
 */
export function buildTaskDetail(state: ProjectState, taskId: string, inputs: DetailInputs): TaskDetail | undefined {
  const task = state.tasks.find((t) => t.id === taskId);
  if (!task) return undefined;
  const runs = state.runs
    .filter((r) => r.taskId === taskId)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.attempt - b.attempt);
  // In the order they started (attempt numbers go on across a retry's fresh budget).
  const runIds = new Set(runs.map((r) => r.id));
  const decisions: TraceDecision[] = [];
  for (const run of runs) {
    for (const line of inputs.runLogs.get(run.id) ?? []) {
      if (line.type !== 'decision' || typeof line.message !== 'string') continue;
      decisions.push({ ts: line.ts, kind: 'run', message: line.message, run: run.id });
    }
  }
  for (const line of inputs.trace ?? []) {
    if (line.type !== 'decision' || line.kind === 'finish') continue; // a run's finish line is in its own log too
    if (line.task !== taskId && !(typeof line.run === 'string' && runIds.has(line.run))) continue;
    const d = traceDecision(line);
    if (d) decisions.push(d);
  }
  decisions.sort((a, b) => a.ts.localeCompare(b.ts));
  const pr = taskPullRequest(task, runs);
  const latest = runs.at(-1);
  const transcript = latest && runTranscript(latest.id, inputs.runLogs.get(latest.id) ?? []);
  return {
    id: task.id,
    title: task.spec.title,
    state: task.state,
    lane: task.spec.lane ?? state.settings.defaultLane,
    spec: task.spec.spec,
    files: [...task.spec.files],
    ...(task.spec.acceptance ? { acceptance: task.spec.acceptance } : {}),
    dependsOn: [...task.spec.dependsOn],
    ...(task.failureReason ? { failureReason: task.failureReason } : {}),
    ...(task.feedback ? { feedback: task.feedback } : {}),
    runs: runs.map((r) => detailRun(r, inputs)),
    guards: inputs.guards
      .filter((g) => g.runId !== undefined && runIds.has(g.runId))
      .map(guardRow)
      .reverse(),
    decisions,
    ...(pr
      ? {
          pullRequest: {
            ...panelPullRequest(pr),
            ...(pr.repository ? { repository: pr.repository } : {}),
            ...(pr.head ? { head: pr.head } : {}),
            ...(pr.base ? { base: pr.base } : {}),
            ...(pr.headSha ? { headSha: pr.headSha } : {}),
            ...(pr.mergeCommit ? { mergeCommit: pr.mergeCommit } : {}),
            warnings: [...pr.warnings],
          },
        }
      : {}),
    ...(transcript ? { transcript } : {}),
  };
}

function detailRun(r: Run, inputs: DetailInputs): DetailRun {
  return {
    id: r.id,
    attempt: r.attempt,
    lane: r.lane,
    state: r.state,
    ...(shownRunState(r) === 'AWAITING_CI' ? { awaitingCi: true as const } : {}),
    startedAt: r.startedAt,
    ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
    ...(r.usage
      ? {
          costUsd: r.usage.costUsd,
          tokens: {
            input: r.usage.inputTokens,
            output: r.usage.outputTokens,
            ...(r.usage.cacheReadTokens !== undefined ? { cacheRead: r.usage.cacheReadTokens } : {}),
            ...(r.usage.cacheWriteTokens !== undefined ? { cacheWrite: r.usage.cacheWriteTokens } : {}),
          },
          tokensText: formatTokens(r.usage),
        }
      : {}),
    ...(r.failureCode ? { failureCode: r.failureCode } : {}),
    ...(r.failureReason ? { failureReason: r.failureReason } : {}),
    ...(r.retryReason ? { retryReason: r.retryReason } : {}),
    ...(r.resumes !== undefined ? { resumes: r.resumes } : {}),
    ...(r.resumeCounts ? { resumeCounts: { ...r.resumeCounts } } : {}),
    ...(r.salvage ? { salvage: { branch: r.salvage.branch, files: r.salvage.files } } : {}),
    ...(r.review ? { review: { lane: r.review.lane, verdict: r.review.verdict, reasons: [...r.review.reasons] } } : {}),
    ...(r.integration ? { integration: { branch: r.integration.branch, commit: r.integration.commit } } : {}),
    ...(r.diffStat ? { diffStat: { ...r.diffStat } } : {}),
    branch: r.branch,
    worktree: r.worktree,
    hasDiff: inputs.diffs.has(r.id),
    hasWorktree: inputs.worktrees.has(r.id),
  };
}

/** Reads what `buildTaskDetail` needs from disk: the task's run logs, and which diffs and worktrees exist. */
export async function loadDetailInputs(
  root: string,
  state: ProjectState,
  taskId: string,
): Promise<Pick<DetailInputs, 'runLogs' | 'diffs' | 'worktrees'>> {
  const runs = state.runs.filter((r) => r.taskId === taskId);
  const exists = (path: string): Promise<boolean> =>
    access(path).then(
      () => true,
      () => false,
    );
  const facts = await Promise.all(
    runs.map(async (r) => ({
      id: r.id,
      log: await readRunLog(eventsPath(root, r.id)),
      diff: await exists(diffPath(root, r.id)),
      worktree: await exists(r.worktree),
    })),
  );
  return {
    runLogs: new Map(facts.map((f) => [f.id, f.log])),
    diffs: new Set(facts.filter((f) => f.diff).map((f) => f.id)),
    worktrees: new Set(facts.filter((f) => f.worktree).map((f) => f.id)),
  };
}
