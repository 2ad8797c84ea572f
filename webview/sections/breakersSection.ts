import type { Breaker, Breakers } from '../../src/core/panel/panelProtocol';
import { fill, h, icon } from '../dom';
import { clock, duration, relative } from '../format';

/** Circuit breakers per lane: closed / open / probing, since when, which failure code, when a probe may run. */
export function renderBreakers(el: HTMLElement, breakers: Breakers, now = Date.now()): void {
  const s = breakers.settings;
  const rule = `A lane's breaker opens after ${s.failures} failures with the same code within ${duration(s.windowMs)}; it probes after ${duration(s.cooldownMs)} and closes after ${s.closeAfter} successes in a row.`;
  if (!breakers.lanes.length) {
    fill(
      el,
      h('p', {
        class: 'empty',
        text: 'No circuit breaker recorded yet: a lane gets one at its first failure. All lanes may start runs.',
      }),
      h('p', { class: 'muted', text: rule }),
    );
    return;
  }
  const rows = breakers.lanes.map((b) =>
    h(
      'tr',
      { 'data-breaker': b.key, 'data-state': b.state },
      h('th', { scope: 'row', text: b.key }),
      h(
        'td',
        { class: `breaker breaker-${b.state}` },
        icon(b.state === 'open' ? 'debug-disconnect' : b.state === 'probing' ? 'debug-step-over' : 'plug'),
        ` ${b.state}`,
      ),
      h('td', { text: `${clock(b.since, now)} (${relative(b.since, now)})` }),
      h('td', { text: b.code ?? '—' }),
      h('td', { text: detail(b, now) }),
      h('td', { text: String(b.opened) }),
    ),
  );
  fill(
    el,
    h(
      'table',
      { class: 'grid', 'aria-label': 'Circuit breakers per lane' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Lane', 'State', 'Since', 'Failure code', 'Detail', 'Times opened'].map((t) =>
            h('th', { scope: 'col', text: t }),
          ),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
    h('p', { class: 'muted', text: rule }),
  );
}

function detail(b: Breaker, now: number): string {
  if (b.state === 'open')
    return b.probeAfter
      ? `a probe may run ${relative(b.probeAfter, now)} (${clock(b.probeAfter, now)})`
      : 'waiting for its cooldown';
  if (b.state === 'probing') return `${b.successes} success(es) in a row; up to ${b.allowance ?? 1} run(s) at once`;
  if (b.recent.length) return `${b.recent.length} recent failure(s): ${b.recent.map((r) => r.code).join(', ')}`;
  // Closed again after it opened: say so, rather than "no recent failures" right after the failures that opened it.
  if (b.opened > 0)
    return `closed ${relative(b.since, now)} after its probe runs succeeded; it last opened for ${b.code ?? 'failures'}`;
  return 'no recent failures';
}
