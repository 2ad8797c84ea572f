import type { LaneRow, Lanes } from '../../src/core/panel/panelProtocol';
import { barChart } from '../charts';
import { fill, h, icon } from '../dom';
import { clock, duration, pct, usd } from '../format';

/**
 * Per lane: completion rate, verify pass rate, wall time per task (p50/p90), cost per completed task, attempts per
 * task; and the canary.
 */
export function renderLanes(el: HTMLElement, lanes: Lanes, now = Date.now()): void {
  const withRuns = lanes.rows.filter((r) => r.runs > 0);
  const canary = lanes.canary
    ? h(
        'div',
        { class: `canary canary-${lanes.canary.verdict}`, role: 'status' },
        h(
          'strong',
          {},
          icon('beaker'),
          ` Canary ${lanes.canary.lane} vs ${lanes.canary.baselineLane}: ${lanes.canary.verdict}`,
        ),
        h('p', { text: lanes.canary.why }),
        h('p', {
          class: 'muted',
          text: `started ${clock(lanes.canary.startedAt, now)}, window ends ${clock(lanes.canary.windowEnds, now)}`,
        }),
      )
    : h('p', {
        class: 'empty',
        text: 'No canary is running. "Switchyard: Start Canary…" routes the project to a new lane for a window and judges it here against the baseline.',
      });
  if (!withRuns.length) {
    fill(
      el,
      h('p', {
        class: 'empty',
        text: 'No runs recorded yet, so there are no lane metrics. They appear after the first run finishes.',
      }),
      canary,
    );
    return;
  }
  const over = overText(lanes);
  const table = h(
    'table',
    { class: 'grid lanes', 'aria-label': `Lane metrics ${over}` },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...[
          'Lane',
          'Tasks',
          'Runs',
          'Completion',
          'Verify pass',
          'Wall time p50',
          'Wall time p90',
          'Cost / completed task',
          'Attempts / task',
        ].map((t) => h('th', { scope: 'col', text: t })),
      ),
    ),
    h('tbody', {}, ...withRuns.map(row)),
  );
  const charts = h(
    'div',
    { class: 'charts' },
    barChart(
      'Completion rate',
      withRuns.map((r) => ({
        label: r.lane,
        value: r.completionRate,
        text: r.tasks > r.canceled ? `${pct(r.completionRate)} (${r.completed}/${r.tasks - r.canceled})` : 'no sample',
      })),
      { max: 1, colour: 'c-green' },
    ),
    barChart(
      'Verify pass rate',
      withRuns.map((r) => ({
        label: r.lane,
        value: r.verifyRuns ? r.verifyPassRate : null,
        text: r.verifyRuns ? `${pct(r.verifyPassRate)} (n=${r.verifyRuns})` : 'no sample',
      })),
      { max: 1, colour: 'c-blue' },
    ),
    barChart(
      'Wall time per task (p50, p90 behind)',
      withRuns.map((r) => ({
        label: r.lane,
        value: r.wallTimeP50Ms,
        back: r.wallTimeP90Ms,
        text: r.wallTimeTasks
          ? `${duration(r.wallTimeP50Ms)} / ${duration(r.wallTimeP90Ms)} (n=${r.wallTimeTasks})`
          : 'no sample',
      })),
      { colour: 'c-purple' },
    ),
    barChart(
      'Cost per completed task',
      withRuns.map((r) => ({ label: r.lane, value: r.costReported ? r.costPerCompletedUsd : null, text: costText(r) })),
      { colour: 'c-orange' },
    ),
    barChart(
      'Attempts per task',
      withRuns.map((r) => ({
        label: r.lane,
        value: r.attemptsPerTask,
        text: attemptsText(r),
      })),
      { colour: 'c-yellow' },
    ),
  );
  fill(el, h('p', { id: 'lanes-over', class: 'muted small', text: `Figures ${over}.` }), table, charts, canary);
}

/** What every figure is over: all recorded runs, or the active tasks and the newest finished ones. */
export function overText(lanes: Lanes): string {
  const over = lanes.over;
  if (!over?.more) return 'over all recorded runs';
  return `over the runs of the active tasks and of the ${over.finished} newest finished tasks (older finished tasks are not counted; Show more in Tasks widens this)`;
}

/** The rate with its sample: "50% (1 of 2 tasks)", and the canceled tasks apart. */
function completionText(r: LaneRow): string {
  const counted = r.tasks - r.canceled;
  const canceled = r.canceled ? ` · ${r.canceled} canceled` : '';
  if (!counted) return `no task to judge${canceled}`;
  return `${pct(r.completionRate)} (${r.completed} of ${counted} task${counted === 1 ? '' : 's'})${canceled}`;
}

/** Only over runs that had an acceptance command; none: no rate at all. */
function verifyText(r: LaneRow): string {
  if (!r.verifyRuns) return 'no acceptance commands yet';
  const passed = Math.round((r.verifyPassRate ?? 0) * r.verifyRuns);
  return `${pct(r.verifyPassRate)} (${passed} of ${r.verifyRuns} run${r.verifyRuns === 1 ? '' : 's'})`;
}

function costText(r: LaneRow): string {
  if (!r.costReported) return 'not reported';
  if (r.costPerCompletedUsd === null) return 'no completed task';
  return usd(r.costPerCompletedUsd);
}

function row(r: LaneRow): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-lane': r.lane },
    h('th', { scope: 'row' }, r.lane, r.isDefault ? h('span', { class: 'badge', text: 'default' }) : null),
    h('td', { text: String(r.tasks) }),
    h('td', { text: String(r.runs) }),
    h('td', {
      text: completionText(r),
      title: 'completed tasks of those not canceled; canceled tasks are counted apart, not as failures',
    }),
    h('td', {
      text: verifyText(r),
      title: 'runs that passed their acceptance command, of the runs that reached one',
    }),
    h('td', { text: withTasks(duration(r.wallTimeP50Ms), r.wallTimeP50Ms, r.wallTimeTasks) }),
    h('td', { text: withTasks(duration(r.wallTimeP90Ms), r.wallTimeP90Ms, r.wallTimeTasks) }),
    h('td', {
      text: costText(r),
      title: r.costReported
        ? `total ${usd(r.costUsd)} over ${r.costReported} run(s) that reported usage`
        : 'this lane reports no usage',
    }),
    h('td', { text: attemptsText(r) }),
  );
}

/** A figure over tasks with its sample: "1.2 s (n=5)"; no sample: "no sample". */
function withTasks(text: string, value: number | null, tasks: number): string {
  return value === null || !tasks ? 'no sample' : `${text} (n=${tasks})`;
}

/** Runs per task with both counts: "1.50 (3 runs / 2 tasks)". */
function attemptsText(r: LaneRow): string {
  if (r.attemptsPerTask === null) return 'no sample';
  return `${r.attemptsPerTask.toFixed(2)} (${r.runs} run${r.runs === 1 ? '' : 's'} / ${r.tasks} task${r.tasks === 1 ? '' : 's'})`;
}
