import * as vscode from 'vscode';
import { pipelineStatus } from '../../core/report/pipelineStatus';
import type { ProjectState } from '../../core/project/project';
import { summarizeGuards } from '../../core/report/guardSummary';
import { type LoadedGuardEvents, guardCountsOver, guardStatusLines } from '../../core/report/guardStatusLines';
import { plainLine, plainText } from '../../core/text/plainText';
import { PipelineDetailNode, PipelineNode, type PipelineTreeNode } from './pipelineTreeNodes';

export { isPipelineTreeNode, PipelineDetailNode, PipelineNode, type PipelineTreeNode } from './pipelineTreeNodes';

/** The Pipeline row, when the project has tasks. */
export function pipelineNodes(state: ProjectState | undefined): PipelineNode[] {
  return state?.tasks.length ? [new PipelineNode(pipelineStatus(state))] : [];
}

export function pipelineChildren(node: PipelineNode, guards: LoadedGuardEvents = { events: [] }): PipelineDetailNode[] {
  const { status } = node;
  const lines = guardStatusLines(guards.events);
  const over = guardCountsOver(guards);
  const guardRows = summarizeGuards(guards.events).map(
    (g) =>
      new PipelineDetailNode(
        `guard:${g.guard}`,
        `guard ${g.guard}`,
        `${g.last.verdict} · ${g.last.rule}`,
        GUARD_ICONS[g.last.verdict],
        `${lines.find((l) => l.startsWith(`${g.guard} `))} (${over})`,
      ),
  );
  if (guards.error)
    guardRows.push(new PipelineDetailNode('guard:log', 'guards', 'log unreadable', 'warning', guards.error));
  const stages = status.stages.map(
    (s) =>
      new PipelineDetailNode(
        `pipeline:${s.stage}`,
        s.stage,
        `${s.count}/${s.limit}${s.full ? ' · full' : ''}`,
        s.full ? 'warning' : 'circle-small',
      ),
  );
  const breakers = status.breakers.map(
    (b) =>
      new PipelineDetailNode(
        `breaker:${b.key}`,
        `breaker ${b.key}`,
        b.state,
        b.state === 'open' ? 'debug-disconnect' : b.state === 'half-open' ? 'debug-step-over' : 'plug',
        b.line,
      ),
  );
  return [...stages, ...breakers, ...guardRows];
}

const GUARD_ICONS = { pass: 'shield', block: 'error', warn: 'warning', error: 'bug' } as const;

/**
 * Label `Pipeline`; description the busy stages (`idle` when none), `backpressure` when a downstream stage is full, and
 * breakers not closed; contextValue `pipeline`.
 */
export function pipelineTreeItem(node: PipelineTreeNode): vscode.TreeItem {
  if (node.kind === 'pipeline-detail') {
    const item = new vscode.TreeItem(plainLine(node.label), vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = plainLine(node.description);
    item.iconPath = new vscode.ThemeIcon(node.icon);
    item.contextValue = node.id.startsWith('breaker:')
      ? 'pipeline.breaker'
      : node.id.startsWith('guard:')
        ? 'pipeline.guard'
        : 'pipeline.stage';
    if (node.tooltip) item.tooltip = plainText(node.tooltip);
    return item;
  }
  const { status } = node;
  const item = new vscode.TreeItem('Pipeline', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = 'pipeline';
  const open = status.breakers.filter((b) => b.state !== 'closed');
  const busy = status.stages
    .filter((st) => st.count > 0)
    .map((st) => `${st.stage} ${st.count}/${st.limit}${st.full ? ' full' : ''}`);
  item.description = plainLine(
    [
      busy.length ? busy.join(' · ') : 'idle',
      status.backpressure ? 'backpressure' : '',
      ...open.map((b) => `breaker ${b.key} ${b.state}`),
    ]
      .filter(Boolean)
      .join(' · '),
  );
  item.contextValue = 'pipeline';
  item.iconPath = new vscode.ThemeIcon(status.backpressure || open.length ? 'warning' : 'pulse');
  item.tooltip = plainText(
    [`Stages: ${status.usage}`, status.backpressure, ...status.breakers.map((b) => `Breaker ${b.line}`)]
      .filter(Boolean)
      .join('\n'),
  );
  return item;
}
