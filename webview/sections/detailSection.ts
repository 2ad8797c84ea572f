import type { DetailRun, PanelTask, TaskDetail, WebviewMessage } from '../../src/core/panel/panelProtocol';
import { button, fill, h, icon, stateIcon } from '../dom';
import { clock, duration, usd } from '../format';
import { guardTable } from './guardsSection';

type Send = (message: WebviewMessage) => void;

const CANCELABLE = new Set([
  'DRAFT',
  'READY',
  'RUNNING',
  'VERIFYING',
  'REVIEWING',
  'INTEGRATING',
  'CHANGES_REQUESTED',
  'BLOCKED',
  'FAILED',
]);
const RETRYABLE = new Set(['FAILED', 'CANCELED']);

/**
 * The selected task: its actions (each one a Switchyard palette command run
 * by the host), its run history and the guard verdicts and decisions about
 * it. The actions come from the task's row, so they show at once; the history
 * arrives from the host (`detail`).
 */
export function renderDetail(
  el: HTMLElement,
  task: PanelTask | undefined,
  detail: TaskDetail | null | undefined,
  problem: string | undefined,
  send: Send,
  now = Date.now(),
): void {
  if (!task) {
    fill(
      el,
      h('p', {
        class: 'empty',
        text:
          'Select a task (click it, or use the arrow keys and Enter in the list) to see its runs, guard ' +
          'results and decisions.',
      }),
    );
    return;
  }
  const actions = h('div', { class: 'actions', role: 'toolbar', 'aria-label': `Actions for ${task.id}` });
  const cmd = (command: WebviewMessage & { type: 'command' }): void => send(command);
  if (task.state === 'READY')
    actions.append(
      action('Run', 'play', `Run ${task.id}`, () => cmd({ type: 'command', command: 'runTask', taskId: task.id })),
    );
  if (RETRYABLE.has(task.state))
    actions.append(
      action('Retry', 'debug-restart', `Retry ${task.id}`, () =>
        cmd({ type: 'command', command: 'retryTask', taskId: task.id }),
      ),
    );
  if (CANCELABLE.has(task.state))
    actions.append(
      action('Cancel', 'circle-slash', `Cancel ${task.id}`, () =>
        cmd({ type: 'command', command: 'cancelTask', taskId: task.id }),
      ),
    );
  if (task.state !== 'DONE')
    actions.append(
      action('Change lane…', 'arrow-swap', `Change the lane of ${task.id} (now ${task.lane})`, () =>
        cmd({ type: 'command', command: 'setTaskLane', taskId: task.id }),
      ),
    );

  const head = h(
    'div',
    { class: 'detail-head' },
    h('h3', { id: 'detail-title' }, icon(stateIcon(task.state)), ` ${task.id} · ${task.title}`),
    h('p', {
      class: 'muted',
      text:
        `${task.state} · lane ${task.lane}${task.laneOverride ? ' (set on the task)' : ' (project default)'} ` +
        `· priority ${task.priority} · ${task.attempts} attempt(s) of its current budget`,
    }),
    task.failureReason ? h('p', { class: 'failure', role: 'note' }, icon('error'), ` ${task.failureReason}`) : null,
    task.blockedBy?.length
      ? h('p', {
          text: `Blocked by ${task.blockedBy.join(', ')} (FAILED or CANCELED): retry or cancel them to unblock.`,
        })
      : null,
    actions,
  );
  if (problem) {
    fill(
      el,
      head,
      h('p', { class: 'failure', role: 'alert', text: `Could not read the history of ${task.id}: ${problem}` }),
    );
    return;
  }
  if (!detail || detail.id !== task.id) {
    fill(el, head, h('p', { class: 'muted', 'aria-busy': 'true', text: 'Reading the run history…' }));
    return;
  }
  fill(
    el,
    head,
    specBlock(detail),
    h('h4', { text: 'Runs' }),
    detail.runs.length
      ? runTable(detail.runs, send, now)
      : h('p', { class: 'empty', text: 'No runs yet: the task has not started.' }),
    h('h4', { text: 'Guard results on its runs' }),
    detail.guards.length
      ? guardTable(detail.guards, `Guard verdicts on the runs of ${detail.id}`, now)
      : h('p', { class: 'empty', text: 'No guard verdict recorded for its runs.' }),
    h('h4', { text: 'Decisions' }),
    detail.decisions.length
      ? h(
          'ol',
          { class: 'decisions' },
          ...detail.decisions.map((d) =>
            h(
              'li',
              {},
              h('span', { class: 'muted', text: `${clock(d.ts, now)}${d.run ? ` ${d.run}` : ''} ` }),
              d.message,
            ),
          ),
        )
      : h('p', { class: 'empty', text: 'No decisions recorded yet.' }),
  );
}

function action(text: string, codicon: string, label: string, onClick: () => void): HTMLButtonElement {
  const b = button(text, { icon: codicon, label, cls: 'btn' });
  b.addEventListener('click', onClick);
  return b;
}

function specBlock(d: TaskDetail): HTMLElement {
  const facts = [
    d.files.length ? `files: ${d.files.join(', ')}` : '',
    d.acceptance ? `acceptance: ${d.acceptance}` : '',
    d.dependsOn.length ? `depends on: ${d.dependsOn.join(', ')}` : '',
  ].filter(Boolean);
  return h(
    'details',
    { class: 'spec' },
    h('summary', { text: 'Spec' }),
    h('pre', { text: d.spec || '(no spec text)' }),
    facts.length ? h('p', { class: 'muted', text: facts.join(' · ') }) : null,
    d.feedback ? h('p', {}, h('strong', { text: 'Feedback for the next attempt: ' }), d.feedback) : null,
  );
}

function runTable(runs: readonly DetailRun[], send: Send, now: number): HTMLElement {
  return h(
    'table',
    { class: 'grid runs', 'aria-label': 'Run history' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Attempt', 'Run', 'Lane', 'Status', 'Started', 'Duration', 'Cost', 'Resumed calls', 'Open'].map((t) =>
          h('th', { scope: 'col', text: t }),
        ),
      ),
    ),
    // A run is "retried" when the run after it is a retry of it; the retry's own row does not repeat the reason.
    ...runs
      .map((r, i) => runRows(r, send, now, runs[i + 1]?.retryReason !== undefined ? runs[i + 1]!.id : undefined))
      .reverse(),
  );
}

/** One run: its row, and under it (full width) its real failure reason and what else happened to it. Newest first. */
function runRows(r: DetailRun, send: Send, now: number, retriedAs?: string): HTMLTableSectionElement {
  const links = h('td', { class: 'links' });
  if (r.hasDiff) {
    const b = button('Diff', { icon: 'diff', label: `Open the diff of ${r.id}`, cls: 'link', action: 'diff' });
    b.addEventListener('click', () => send({ type: 'command', command: 'showRunDiff', runId: r.id }));
    links.append(b);
  }
  if (r.hasWorktree) {
    const b = button('Worktree', {
      icon: 'folder-opened',
      label: `Open the worktree of ${r.id} (${r.worktree})`,
      cls: 'link',
      action: 'worktree',
    });
    b.addEventListener('click', () => send({ type: 'command', command: 'openWorktree', runId: r.id }));
    links.append(b);
  }
  if (!r.hasDiff && !r.hasWorktree)
    links.append(h('span', { class: 'muted', text: r.state === 'RUNNING' ? 'running' : 'removed' }));
  const status = `${r.state}${r.failureCode ? ` (${r.failureCode})` : ''}`;
  const extra = [
    retriedAs ? `retried as ${retriedAs}` : '',
    r.salvage ? `salvage: ${r.salvage.files} file(s) on ${r.salvage.branch}` : '',
    r.review
      ? `review by ${r.review.lane}: ` +
        `${r.review.verdict}${r.review.reasons.length ? ` (${r.review.reasons.join('; ')})` : ''}`
      : '',
    r.integration ? `integrated into ${r.integration.branch} at ${r.integration.commit.slice(0, 12)}` : '',
    r.diffStat ? `${r.diffStat.files} file(s) +${r.diffStat.insertions} −${r.diffStat.deletions}` : '',
  ].filter(Boolean);
  const notes =
    r.failureReason || extra.length
      ? h(
          'tr',
          { class: 'run-notes' },
          h('td', {}),
          h(
            'td',
            { colspan: 8 },
            r.failureReason ? h('div', { class: 'failure reason', text: r.failureReason }) : null,
            extra.length ? h('div', { class: 'muted small', text: extra.join(' · ') }) : null,
          ),
        )
      : null;
  const row = h(
    'tr',
    { 'data-run-id': r.id, 'data-state': r.state },
    h('td', { text: String(r.attempt) }),
    h('td', {}, h('code', { text: r.id })),
    h('td', { text: r.lane }),
    h('td', { class: `state state-${r.state}` }, icon(stateIcon(r.state)), ` ${status}`),
    h('td', { text: clock(r.startedAt, now), title: r.startedAt }),
    r.durationMs === undefined && r.state === 'RUNNING'
      ? h('td', {}, h('span', { 'data-since': r.startedAt, text: duration(now - Date.parse(r.startedAt)) }))
      : h('td', { text: duration(r.durationMs) }),
    h('td', {
      text:
        r.costUsd === undefined
          ? 'not reported'
          : `${usd(r.costUsd)}${r.tokens ? ` (${r.tokens.input}+${r.tokens.output} tok)` : ''}`,
    }),
    h('td', { text: resumed(r) }),
    links,
  );
  return h('tbody', { 'data-run-id': r.id }, row, notes);
}

function resumed(r: DetailRun): string {
  if (!r.resumes && !r.resumeCounts) return '—';
  const c = r.resumeCounts;
  const counts = c ? `replayed ${c.replayed}, re-sent ${c.resent}, re-run ${c.rerun}, uncertain ${c.uncertain}` : '';
  return [r.resumes ? `resumed ${r.resumes}×` : '', counts].filter(Boolean).join(': ');
}
