import type { Run } from '../core/model/run';
import { latestPullRequest, pullRequestLines } from '../core/report/pullRequestLines';
import type { Task } from '../core/model/task';
import type { ProjectState } from '../core/project/project';
import { formatMs } from '../core/text/formatMs';
import { pipelineStatus } from '../core/report/pipelineStatus';
import { formatUsd, totalCostUsd } from '../core/text/usageText';
import { table } from '../core/text/textTable';
import { formatTokens } from '../core/text/usageText';
import { formatBytes } from '../core/text/formatBytes';
import type { WorktreeUsage } from '../core/project/worktreeService';

export { table };

export function laneOf(task: Task, state: ProjectState): string {
  return task.spec.lane ?? state.settings.defaultLane;
}

export function runLine(run: Run): string {
  const parts = [`${run.id}`, run.state, `lane ${run.lane}`, `attempt ${run.attempt}`];
  if (run.durationMs !== undefined) parts.push(formatMs(run.durationMs));
  if (run.setup) parts.push(setupText(run.setup));
  if (run.diffStat) parts.push(`${run.diffStat.files} file(s) +${run.diffStat.insertions} -${run.diffStat.deletions}`);
  if (run.usage && (run.usage.inputTokens || run.usage.costUsd)) {
    const review = run.reviewUsage?.costUsd ? ` (review $${run.reviewUsage.costUsd.toFixed(4)})` : '';
    parts.push(`${formatTokens(run.usage)} $${run.usage.costUsd.toFixed(4)}${review}`);
  }
  if (run.resumes) {
    const c = run.resumeCounts;
    parts.push(`resumed ${run.resumes}×${c ? ` (${resumeCountsText(c)})` : ''}`);
  }
  if (run.salvage) parts.push(`salvaged ${run.salvage.files} file(s) on ${run.salvage.branch}`);
  if (run.failureReason) parts.push(`reason: ${run.failureReason}`);
  return parts.join(' · ');
}

/** How long preparing the run's worktree took, e.g. `setup 1.2s (cache hit)`. */
export function setupText(setup: NonNullable<Run['setup']>): string {
  const cache = setup.cache === 'hit' ? ' (cache hit)' : setup.cache === 'stored' ? ' (cache stored)' : '';
  const waited = setup.waitMs && setup.waitMs >= 100 ? `, waited ${formatMs(setup.waitMs)}` : '';
  return `setup ${formatMs(setup.durationMs)}${cache}${waited}`;
}

/** The human-readable `switchyard status`. */
export function formatStatus(state: ProjectState): string {
  if (state.tasks.length === 0) return 'No tasks yet. Add one with `switchyard task add --title "…" --spec "…"`.';
  const lines: string[] = [];
  lines.push(
    table(
      ['TASK', 'STATE', 'LANE', 'ATTEMPTS', 'TITLE'],
      state.tasks.map((t) => [
        t.id,
        t.merged ? `${t.state}, merged` : t.discarded ? `${t.state}, discarded` : t.state,
        laneOf(t, state),
        // The number its runs carry: attempts before a retry included.
        String((t.attemptsBefore ?? 0) + t.attempts),
        t.spec.title,
      ]),
    ),
  );
  for (const task of state.tasks) {
    const runs = state.runs.filter((r) => r.taskId === task.id);
    if (!runs.length && !task.failureReason) continue;
    const cost = totalCostUsd(runs);
    lines.push('', `${task.id} ${task.spec.title}${cost > 0 ? ` · cost ${formatUsd(cost)}` : ''}`);
    if (task.failureReason) lines.push(`  ${task.state === 'FAILED' ? 'failure' : 'note'}: ${task.failureReason}`);
    if (task.merged)
      lines.push(
        `  merged into ${task.merged.branch} as ${task.merged.commit.slice(0, 12)} (${task.merged.runId}, ${task.merged.at})`,
      );
    if (task.discarded) lines.push(`  change discarded (${task.discarded.runId}, ${task.discarded.at})`);
    const pr = latestPullRequest(state, task.id);
    if (pr) lines.push(...pullRequestLines(pr).map((l) => `  ${l}`));
    for (const run of runs) lines.push(`  ${runLine(run)}`);
  }
  const counts = new Map<string, number>();
  for (const t of state.tasks) counts.set(t.state, (counts.get(t.state) ?? 0) + 1);
  const total = totalCostUsd(state.runs);
  lines.push(
    '',
    [...counts].map(([s, n]) => `${n} ${s}`).join(', ') + (total > 0 ? `; total cost ${formatUsd(total)}` : ''),
  );
  lines.push(...pipelineLines(state));
  return lines.join('\n');
}

/** `worktrees: 3 (41.2 MB)`: how many run worktrees exist and, when known, their size at the last measurement. */
export function worktreeLine(usage: WorktreeUsage): string {
  const size = usage.bytes !== undefined ? ` (${formatBytes(usage.bytes)})` : usage.count ? ' (size unknown)' : '';
  return `worktrees: ${usage.count}${size}`;
}

/**
 * Stage WIP usage, backpressure and circuit breakers (open or half-open ones, and closed ones with recent failures).
 */
export function pipelineLines(state: ProjectState): string[] {
  const p = pipelineStatus(state);
  const lines = [`stages: ${p.usage}`];
  if (p.backpressure) lines.push(p.backpressure);
  for (const b of p.breakers) if (b.state !== 'closed' || /recent/.test(b.line)) lines.push(`breaker ${b.line}`);
  return lines;
}

function resumeCountsText(c: { replayed: number; resent: number; rerun: number; uncertain: number }): string {
  return `replayed ${c.replayed}, re-sent ${c.resent}, re-run ${c.rerun}, uncertain ${c.uncertain}`;
}
