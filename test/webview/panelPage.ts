import type { Page } from 'playwright-core';
import { buildPanelView } from '../../src/core/panel/buildPanelView';
import type { HostMessage, PanelView } from '../../src/core/panel/panelProtocol';
import { buildTaskDetail } from '../../src/core/panel/taskDetail';
import { T0, richProject } from '../helpers/panelFixture';
import { hostPost, takePosted, type StandIn } from './standIn';
import type { ThemeName } from './themes';

/** The pictures' and assertions' "now": five minutes into the fixture project. */
export const NOW = T0 + 300_000;

export function richView(): { view: PanelView; detail: (taskId: string) => HostMessage } {
  const { state, guards, trace } = richProject();
  const view = buildPanelView(state, '/work/acme-api', { guards, trace }, NOW);
  const detail = (taskId: string): HostMessage => {
    const runs = state.runs.filter((r) => r.taskId === taskId && r.state !== 'RUNNING').map((r) => r.id);
    const runLogs = new Map(
      state.runs
        .filter((r) => r.taskId === taskId)
        .map((r) => [
          r.id,
          [
            {
              ts: r.startedAt,
              type: 'decision',
              message: `worktree .switchyard/worktrees/${r.id} on branch ${r.branch}`,
            },
            ...laneEvents(r.startedAt),
          ],
        ]),
    );
    return {
      type: 'detail',
      taskId,
      detail:
        buildTaskDetail(state, taskId, {
          runLogs,
          diffs: new Set(runs),
          worktrees: new Set(runs.slice(-1)),
          guards,
          trace,
        }) ?? null,
    };
  };
  return { view, detail };
}

/** What a lane said and did in a run: its text, a tool call with its result, output lines, usage. */
function laneEvents(ts: string): { ts: string; type: string; event: Record<string, unknown> }[] {
  return [
    { ts, type: 'lane', event: { type: 'text', text: 'The test fails on a missing email check; fixing create_user.' } },
    {
      ts,
      type: 'lane',
      event: { type: 'tool-call', callId: 'c1', name: 'edit_file', input: { path: 'src/users.py', line: 41 } },
    },
    { ts, type: 'lane', event: { type: 'tool-result', callId: 'c1', output: 'edited src/users.py', isError: false } },
    { ts, type: 'lane', event: { type: 'log', stream: 'stderr', line: 'pytest: 1 failed, 11 passed' } },
    { ts, type: 'lane', event: { type: 'usage', usage: { inputTokens: 7820, outputTokens: 782, costUsd: 0.04 } } },
  ];
}

/** Opens the panel in the stand-in host with the clock at NOW; waits for its `ready`. */
export async function openPanel(
  page: Page,
  standIn: StandIn,
  theme: ThemeName,
  options: { fixedClock?: boolean } = {},
): Promise<void> {
  // A fixed clock also replaces `performance` (no measures): the load test keeps the real one.
  if (options.fixedClock !== false) await page.clock.setFixedTime(NOW);
  // A fresh panel: no UI state from an earlier test (the stand-in keeps setState in sessionStorage).
  await page.goto(standIn.url(theme, true));
  await page.waitForFunction(() =>
    (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'),
  );
}

export async function snapshot(page: Page, view: PanelView, seq = 1): Promise<void> {
  await hostPost(page, { type: 'snapshot', seq, view });
  await page.waitForFunction((s) => document.body.dataset.seq === String(s), seq);
}

export { hostPost, takePosted };
