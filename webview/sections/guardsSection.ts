import type { GuardRow, Guards } from '../../src/core/panel/panelProtocol';
import { fill, h, icon } from '../dom';
import { clock, duration } from '../format';

const VERDICT_ICON: Record<GuardRow['verdict'], string> = {
  pass: 'pass',
  block: 'error',
  warn: 'warning',
  error: 'bug',
};

/**
 * A table of guard verdicts: guard, verdict, matched rule, evidence (file:line, merge parents and sources), duration.
 */
export function guardTable(rows: readonly GuardRow[], label: string, now = Date.now()): HTMLTableElement {
  return h(
    'table',
    { class: 'grid guards', 'aria-label': label },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Time', 'Guard', 'Verdict', 'Rule', 'Evidence', 'Run', 'Duration'].map((t) =>
          h('th', { scope: 'col', text: t }),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...rows.map((g) =>
        h(
          'tr',
          { 'data-verdict': g.verdict },
          h('td', { text: clock(g.ts, now), title: g.ts }),
          h('td', { text: g.guard, title: g.subject ?? '' }),
          h('td', { class: `verdict verdict-${g.verdict}` }, icon(VERDICT_ICON[g.verdict]), ` ${g.verdict}`),
          h('td', { text: g.rule }),
          h('td', {}, evidence(g)),
          h('td', { text: g.runId ?? '—' }),
          h('td', { text: duration(g.durationMs) }),
        ),
      ),
    ),
  );
}

function evidence(g: GuardRow): HTMLElement {
  if (g.verdict === 'error')
    return h('span', { class: 'failure', text: `guard error (the flow went on): ${g.error ?? 'unknown'}` });
  if (!g.evidence.length)
    return h('span', { class: 'muted', text: g.subject ? `checked ${g.subject}` : 'no findings' });
  return h(
    'ul',
    { class: 'evidence' },
    ...g.evidence.map((e) => h('li', {}, e.where ? h('code', { text: e.where }) : null, e.where ? ' ' : '', e.message)),
  );
}

export function renderGuards(el: HTMLElement, guards: Guards, now = Date.now()): void {
  const problem = guards.problem
    ? h('p', { class: 'failure', role: 'alert' }, icon('warning'), ` ${guards.problem}`)
    : null;
  if (!guards.recent.length) {
    fill(
      el,
      problem,
      h('p', {
        class: 'empty',
        text: "No guard verdicts recorded yet: .switchyard/guards.jsonl gets one when a guard checks a run's change or a push.",
      }),
    );
    return;
  }
  fill(
    el,
    problem,
    h('p', { class: 'muted', text: `The newest ${guards.recent.length} of ${guards.total} verdict(s) recorded.` }),
    guardTable(guards.recent, 'Guard verdicts, newest first', now),
  );
}
