import type { Run } from '../../model/run';
import { STAGES, type Stage } from '../../model/taskStates';
import { RunSignals, type TickSignals } from '../../scheduler/signals';
import { describeUsage } from '../../scheduler/stageLimits';
import type { ProjectState } from '../../store/projectState';
import type { ClaimResult } from './claimTasks';
import type { SchedulerMirror } from './schedulerMirror';
import type { StageGate } from '../stageGate';
import type { TraceLog } from '../../store/traceLog';

/**
 * What one drain writes to the trace: why each task started (and on which
 * lane), why nothing started (backpressure, full stages, open breakers,
 * held files, dependencies), and the signals of each tick: per-stage queue
 * wait, the current streak of identical failure codes, the budget burn rate.
 * Repeated reasons and unchanged signals are written once.
 */
export class DrainTrace {
  readonly signals = new RunSignals();
  private lastReason: string | undefined;
  private lastSignals = '';
  private readonly noted = new Set<string>();

  constructor(
    private readonly trace: TraceLog,
    private readonly mirror: SchedulerMirror,
    private readonly gate: StageGate,
  ) {}

  started(state: ProjectState, only?: ReadonlySet<string>): void {
    this.trace.append({
      type: 'drain',
      kind: 'start',
      message: `drain started: ${describeUsage(this.mirror.current.stages.counts, this.mirror.current.stages.limits)}`,
    });
    const now = Date.now();
    for (const task of state.tasks) {
      if (only && !only.has(task.id)) continue;
      if (task.state === 'READY' && this.mirror.current.dag.get(task.id)?.unmet) {
        this.decision('wait', `task ${task.id} ${this.mirror.current.waitingReason(task.id, now)}`, { task: task.id });
      } else if (task.state === 'BLOCKED') {
        this.decision(
          'blocked',
          `task ${task.id} is BLOCKED by ${task.blockedBy?.join(', ') ?? 'a dependency'} (FAILED or CANCELED)`,
          { task: task.id },
        );
      }
    }
  }

  claimed(result: ClaimResult): void {
    for (const c of result.claimed)
      this.decision('start', `start ${c.task.id} as ${c.run.id} (attempt ${c.run.attempt}): ${c.why}`, {
        task: c.task.id,
        run: c.run.id,
        lane: c.run.lane,
      });
    for (const s of result.pick.skippedLanes)
      this.once(`breaker:${s.lane}:${s.reason}`, 'breaker', `lane ${s.lane} gets no new run: ${s.reason}`);
    for (const p of result.pick.parked)
      this.once(`file:${p.id}:${p.file}`, 'wait', `task ${p.id} waits for ${p.file}, held by ${p.heldBy}`, {
        task: p.id,
      });
    if (result.claimed.length) this.lastReason = undefined;
    else if (result.pick.reason) this.waiting(result.pick.reason, result.pick.backpressure);
  }

  /** Ready work that does not start, and why (a full stage); written when the reason changes. */
  waiting(reason: string, backpressure: boolean): void {
    if (reason === this.lastReason) return;
    this.lastReason = reason;
    this.decision(backpressure ? 'backpressure' : 'wait', backpressure ? reason : `no new run: ${reason}`);
  }

  runFinished(run: Run): void {
    this.signals.runEnded(run.state === 'FAILED' ? run.failureCode : undefined, run.usage?.costUsd ?? 0, Date.now());
  }

  tick(now: number): void {
    const stageWait = {} as TickSignals['stageWait'];
    for (const stage of STAGES) stageWait[stage] = this.waitOf(stage, now);
    const signals: TickSignals = {
      stageWait,
      failureStreak: this.signals.failureStreak,
      burnRateUsdPerHour: round(this.signals.burnRateUsdPerHour(now)),
    };
    const text = JSON.stringify(signals);
    if (text === this.lastSignals) return;
    this.lastSignals = text;
    this.trace.append({
      type: 'signals',
      wip: describeUsage(this.mirror.current.stages.counts, this.mirror.current.stages.limits),
      ...signals,
    });
  }

  ended(message: string): void {
    this.trace.append({ type: 'drain', kind: 'end', message });
  }

  private waitOf(stage: Stage, now: number): { waiting: number; oldestMs: number } {
    if (stage === 'RUNNING')
      return {
        waiting: this.mirror.current.readyCount,
        oldestMs: roundSeconds(this.mirror.current.oldestReadyWaitMs(now)),
      };
    const waiters = [...this.gate.waiters(stage).values()];
    return { waiting: waiters.length, oldestMs: waiters.length ? roundSeconds(now - Math.min(...waiters)) : 0 };
  }

  private once(key: string, kind: string, message: string, extra: Record<string, unknown> = {}): void {
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.decision(kind, message, extra);
  }

  private decision(kind: string, message: string, extra: Record<string, unknown> = {}): void {
    this.trace.append({ type: 'decision', kind, message, ...extra });
  }
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

function roundSeconds(ms: number): number {
  return Math.round(ms / 1000) * 1000;
}
