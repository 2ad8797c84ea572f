import { Scheduler, type SchedTask } from '../../../src/core/scheduler/scheduler';
import type { WipLimits } from '../../../src/core/store/orchestratorSettings';

export const LIMITS: WipLimits = { RUNNING: 4, VERIFYING: 2, REVIEWING: 3, INTEGRATING: 1, AWAITING_CI: 4 };

export function sched(
  limits: Partial<WipLimits> = {},
  extra: Partial<ConstructorParameters<typeof Scheduler>[0]> = {},
): Scheduler {
  return new Scheduler({ limits: { ...LIMITS, ...limits }, agingPerMinute: 1, ...extra });
}

let order = 0;
export function task(id: string, extra: Partial<SchedTask> = {}): SchedTask {
  order += 1;
  return { id, deps: [], priority: 50, lane: 'l', files: [], order, ...extra };
}

/** Runs a picked task through every stage to DONE. */
export function finish(s: Scheduler, id: string, at: number): void {
  for (const stage of ['VERIFYING', 'REVIEWING', 'INTEGRATING', 'DONE'] as const) s.setState(id, stage, at);
}

export function ids(s: Scheduler, now: number, max?: number): string[] {
  return s.pick(now, max).picks.map((p) => p.id);
}
