import type { Pipeline, Scheduler } from '../../src/core/panel/panelProtocol';
import { fill, h, icon } from '../dom';
import { clock, duration } from '../format';

/**
 * The stages with their WIP usage (n / limit, as a meter) and the tasks in
 * each, whether new runs may start (backpressure and why), and what the
 * scheduler last recorded in its trace.
 */
export function renderPipeline(el: HTMLElement, pipeline: Pipeline, select: (id: string) => void): void {
  const cards = pipeline.stages.map((s) => {
    const full = s.limit !== undefined && s.count >= s.limit;
    const usage = s.limit === undefined ? `${s.count}` : `${s.count} / ${s.limit}`;
    const chips = s.tasks.map((id) =>
      h('button', { type: 'button', class: 'chip', 'data-select': id, 'aria-label': `Show task ${id}`, text: id }),
    );
    const card = h(
      'div',
      {
        class: `stage${full ? ' full' : ''}`,
        role: 'group',
        'aria-label':
          s.limit === undefined
            ? `${s.stage}: ${s.count}, no WIP limit set`
            : `${s.stage}: ${s.count} of ${s.limit}${full ? ', full' : ''}`,
        'data-stage': s.stage,
      },
      h(
        'div',
        { class: 'stage-head' },
        h('span', { class: 'stage-name', text: s.stage }),
        h('span', { class: 'stage-count', text: usage }),
      ),
      s.limit === undefined
        ? h('div', { class: 'muted small', text: 'no WIP limit set' })
        : h(
            'div',
            {
              class: 'meter',
              role: 'meter',
              'aria-valuemin': 0,
              'aria-valuemax': s.limit,
              'aria-valuenow': s.count,
              'aria-label': `${s.stage} WIP`,
            },
            meterFill(s.count, s.limit),
          ),
      h('div', { class: 'chips' }, ...(chips.length ? chips : [h('span', { class: 'muted', text: 'empty' })])),
    );
    return card;
  });
  const status = pipeline.blocked
    ? h(
        'p',
        { class: `flow ${pipeline.blocked.backpressure ? 'backpressure' : 'full'}`, role: 'status' },
        icon(pipeline.blocked.backpressure ? 'warning' : 'info'),
        ` ${pipeline.blocked.backpressure ? 'Backpressure' : 'No free run slot'}: ` +
          `${pipeline.blocked.reason.replace(/^backpressure: /, '')}`,
      )
    : allPaused(pipeline)
      ? h(
          'p',
          { class: 'flow full', role: 'status' },
          icon('warning'),
          ` No new run can start: every READY task's lane is paused by its circuit breaker (see below).`,
        )
      : h(
          'p',
          { class: 'flow ok', role: 'status' },
          icon('check'),
          ` No backpressure: ${freeSlots(pipeline)} free RUNNING slot(s); new runs may start` +
            (pipeline.paused.length ? ' on lanes not paused by their breaker.' : '.'),
        );
  const paused = pipeline.paused.map((p) =>
    h(
      'p',
      { class: 'flow paused', 'data-paused-lane': p.lane },
      icon('debug-pause'),
      ` Lane ${p.lane} is paused by its circuit breaker: ${p.ready} READY task${p.ready === 1 ? '' : 's'} wait` +
        `${p.ready === 1 ? 's' : ''} for it (${p.reason}).`,
    ),
  );
  fill(el, h('div', { class: 'stages' }, ...cards), status, ...paused);
  el.onclick = (e) => {
    const id = (e.target as HTMLElement).closest<HTMLElement>('[data-select]')?.dataset.select;
    if (id) select(id);
  };
}

/** READY tasks wait, and every one of them is on a lane its breaker pauses. */
function allPaused(p: Pipeline): boolean {
  return p.ready > 0 && p.paused.reduce((sum, x) => sum + x.ready, 0) >= p.ready;
}

function freeSlots(p: Pipeline): number {
  const running = p.stages.find((s) => s.stage === 'RUNNING');
  return running?.limit !== undefined ? Math.max(0, running.limit - running.count) : 0;
}

function meterFill(count: number, limit: number): HTMLElement {
  const bar = h('div', { class: 'meter-fill' });
  bar.style.width = `${Math.min(100, (count / Math.max(1, limit)) * 100)}%`;
  return bar;
}

/**
 * The scheduler's trace: the last backpressure decision, per-stage waits, failure streak, burn rate, latest decisions.
 */
export function renderScheduler(el: HTMLElement, scheduler: Scheduler, now = Date.now()): void {
  if (!scheduler.available) {
    fill(
      el,
      h('p', {
        class: 'empty',
        text: 'No scheduler trace yet: .switchyard/trace.jsonl is written when a queue runs (Run Queue). Its decisions and signals will show here.',
      }),
    );
    return;
  }
  const parts: HTMLElement[] = [];
  if (scheduler.drain)
    parts.push(
      h('p', {
        class: 'muted',
        text: `Last drain ${scheduler.drain.kind} at ${clock(scheduler.drain.ts, now)}: ${scheduler.drain.message}`,
      }),
    );
  parts.push(
    scheduler.lastBackpressure
      ? h(
          'p',
          {},
          h('strong', { text: 'Last backpressure: ' }),
          `${clock(scheduler.lastBackpressure.ts, now)} · ${scheduler.lastBackpressure.message}`,
        )
      : h('p', { class: 'muted', text: 'The trace records no backpressure so far.' }),
  );
  const s = scheduler.signals;
  if (s) {
    const waits = Object.entries(s.stageWait).map(
      ([stage, w]) => `${stage} ${w.waiting} waiting${w.waiting ? ` (oldest ${duration(w.oldestMs)})` : ''}`,
    );
    parts.push(
      h(
        'p',
        {},
        h('strong', { text: `Signals at ${clock(s.ts, now)}: ` }),
        [
          waits.join(' · '),
          s.failureStreak ? `failure streak ${s.failureStreak.count}× ${s.failureStreak.code}` : 'no failure streak',
          s.burnRateUsdPerHour !== undefined ? `burn $${s.burnRateUsdPerHour.toFixed(4)}/h` : '',
        ]
          .filter(Boolean)
          .join(' · '),
      ),
    );
  }
  if (scheduler.decisions.length) {
    parts.push(
      h(
        'details',
        {},
        h('summary', { text: `Latest scheduler decisions (${scheduler.decisions.length})` }),
        h(
          'ul',
          { class: 'decisions' },
          ...scheduler.decisions.map((d) =>
            h('li', {}, h('span', { class: 'muted', text: `${clock(d.ts, now)} ${d.kind} ` }), d.message),
          ),
        ),
      ),
    );
  }
  fill(el, ...parts);
}
