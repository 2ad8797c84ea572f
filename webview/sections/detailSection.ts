import type {
  DetailRun,
  PanelTask,
  RunTranscript,
  TaskDetail,
  WebviewMessage,
} from '../../src/core/panel/panelProtocol';
import { button, checkIcon, fill, h, icon, stateIcon } from '../dom';
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
        text: 'Select a task (click it, or use the arrow keys and Enter in the list) to see its runs, guard results and decisions.',
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
  if (task.pr)
    actions.append(
      action('Open Pull Request', 'git-pull-request', `Open pull request #${task.pr.number} of ${task.id}`, () =>
        cmd({ type: 'command', command: 'openPullRequest', taskId: task.id }),
      ),
    );
  if (task.state === 'DONE')
    actions.append(
      action('Open Changes', 'diff-multiple', `Open the changes of ${task.id} in the diff editor`, () =>
        cmd({ type: 'command', command: 'openChanges', taskId: task.id }),
      ),
      action('Merge into current branch', 'git-merge', `Merge the change of ${task.id} into the current branch`, () =>
        cmd({ type: 'command', command: 'mergeIntoCurrentBranch', taskId: task.id }),
      ),
      action('Check Out Branch', 'git-branch', `Check out the branch of ${task.id}`, () =>
        cmd({ type: 'command', command: 'checkOutBranch', taskId: task.id }),
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
    detail.pullRequest ? pullRequestBlock(detail.pullRequest, detail.id, send) : null,
    h('h4', { text: 'Runs' }),
    detail.runs.length
      ? runTable(detail.runs, send, now)
      : h('p', { class: 'empty', text: 'No runs yet: the task has not started.' }),
    ...(detail.transcript ? transcriptBlock(detail.transcript) : []),
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

/**
 * The task's pull request: number, state, where it goes, its required checks with their states; the URL is text,
 * and the link button asks the host to open it (the page opens nothing itself).
 */
function pullRequestBlock(pr: NonNullable<TaskDetail['pullRequest']>, taskId: string, send: Send): HTMLElement {
  const open = button(`#${pr.number}`, {
    icon: 'link-external',
    label: `Open pull request #${pr.number}`,
    cls: 'link',
  });
  open.addEventListener('click', () => send({ type: 'command', command: 'openPullRequest', taskId }));
  const where = pr.repository ? ` · ${pr.repository}: ${pr.head ?? '?'} → ${pr.base ?? '?'}` : '';
  const facts = [
    pr.headSha ? `head ${pr.headSha.slice(0, 12)}` : '',
    pr.mergeCommit ? `merge commit ${pr.mergeCommit.slice(0, 12)}` : '',
  ].filter(Boolean);
  return h(
    'section',
    { class: 'pull-request', 'aria-label': `Pull request #${pr.number}`, 'data-pr-state': pr.state },
    h('h4', { text: 'Pull request' }),
    h('p', {}, icon(pr.state === 'merged' ? 'git-merge' : 'git-pull-request'), ' ', open, ` ${pr.state}${where}`),
    h('p', { class: 'muted small', text: [pr.url, ...facts].join(' · ') }),
    pr.checks.length
      ? h(
          'ul',
          { class: 'checks', 'aria-label': 'Required checks' },
          ...pr.checks.map((c) =>
            h(
              'li',
              { class: `check check-${c.state}`, 'data-check': c.name },
              icon(checkIcon(c.state)),
              ` ${c.name}: ${c.state === 'missing' ? 'missing (not registered yet)' : c.state}`,
              c.conclusion && c.conclusion !== c.state ? ` (${c.conclusion})` : '',
            ),
          ),
        )
      : h('p', { class: 'empty', text: 'No required checks recorded yet.' }),
    ...pr.warnings.map((w) => h('p', { class: 'muted small' }, icon('warning'), ` ${w}`)),
  );
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
  const shown = r.awaitingCi ? 'AWAITING_CI' : r.state;
  const status = `${shown}${r.failureCode ? ` (${r.failureCode})` : ''}`;
  const extra = [
    retriedAs ? `retried as ${retriedAs}` : '',
    r.salvage ? `salvage: ${r.salvage.files} file(s) on ${r.salvage.branch}` : '',
    r.review
      ? `review by ${r.review.lane}: ${r.review.verdict}${r.review.reasons.length ? ` (${r.review.reasons.join('; ')})` : ''}`
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
    h('td', { class: `state state-${r.state}` }, icon(stateIcon(shown)), ` ${status}`),
    h('td', { text: clock(r.startedAt, now), title: r.startedAt }),
    r.durationMs === undefined && r.state === 'RUNNING'
      ? h('td', {}, h('span', { 'data-since': r.startedAt, text: duration(now - Date.parse(r.startedAt)) }))
      : h('td', { text: duration(r.durationMs) }),
    h('td', {
      text: r.costUsd === undefined ? 'not reported' : `${usd(r.costUsd)}${r.tokensText ? ` (${r.tokensText})` : ''}`,
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

/** The latest run's transcript: the lane's text as paragraphs; tool calls and output bursts collapsed. */
function transcriptBlock(t: RunTranscript): HTMLElement[] {
  const items = t.entries.map((e): HTMLElement => {
    switch (e.kind) {
      case 'text':
        return h('li', { class: 'transcript-text' }, h('p', { text: e.text }));
      case 'usage':
        return h('li', { class: 'muted' }, `usage: ${e.text}`);
      case 'log':
        return h(
          'li',
          {},
          h(
            'details',
            {},
            h('summary', { text: `${e.lines.length} ${e.stream} line${e.lines.length === 1 ? '' : 's'}` }),
            h('pre', { text: e.lines.join('\n') }),
          ),
        );
      default:
        return h(
          'li',
          {},
          h(
            'details',
            {},
            h('summary', {}, icon(e.isError ? 'error' : 'tools'), ` ${e.name}${e.isError ? ' (error)' : ''}`),
            e.input ? h('pre', { 'aria-label': `input of ${e.name}`, text: e.input }) : null,
            e.output !== undefined
              ? h('pre', { 'aria-label': `result of ${e.name}`, text: e.output || '(empty)' })
              : h('p', { class: 'muted', text: 'no result yet' }),
          ),
        );
    }
  });
  const block: HTMLElement[] = [h('h4', { text: `Transcript of ${t.runId}` })];
  if (t.omitted)
    block.push(h('p', { class: 'muted', text: `${t.omitted} earlier entries not shown (Show Run Log has all).` }));
  block.push(h('ol', { class: 'transcript', 'aria-label': `Transcript of ${t.runId}` }, ...items));
  return block;
}
