import type { Stage } from '../model/taskStates';

export interface FailureStreak {
  code: string;
  /** How many runs in a row ended with this code (the latest runs to end). */
  count: number;
}

/** What the orchestrator records each tick (`signals` lines of the trace). */
export interface TickSignals {
  /** Per stage: tasks waiting to enter it and how long the longest of them has waited. */
  stageWait: Record<Stage, { waiting: number; oldestMs: number }>;
  failureStreak?: FailureStreak;
  /** USD per hour spent by runs that ended within the burn window. */
  burnRateUsdPerHour: number;
}

const BURN_WINDOW_MS = 60 * 60_000;

/**
 * Failure streaks and budget burn, kept from run ends as they happen (not
 * recomputed from every run). Pure; times are epoch ms.
 */
export class RunSignals {
  private streak: FailureStreak | undefined;
  private readonly costs: { at: number; usd: number }[] = [];
  private costSum = 0;
  private firstAt: number | undefined;

  /** A run ended: `code` when it failed, undefined when it succeeded. */
  runEnded(code: string | undefined, costUsd: number, at: number): void {
    if (code === undefined) this.streak = undefined;
    else if (this.streak?.code === code) this.streak = { code, count: this.streak.count + 1 };
    else this.streak = { code, count: 1 };
    this.firstAt ??= at;
    if (costUsd > 0) {
      this.costs.push({ at, usd: costUsd });
      this.costSum += costUsd;
    }
  }

  get failureStreak(): FailureStreak | undefined {
    return this.streak;
  }

  burnRateUsdPerHour(now: number): number {
    while (this.costs.length && now - this.costs[0]!.at > BURN_WINDOW_MS) this.costSum -= this.costs.shift()!.usd;
    if (this.firstAt === undefined || this.costSum <= 0) return 0;
    const span = Math.max(60_000, Math.min(BURN_WINDOW_MS, now - this.firstAt));
    return (this.costSum * 3_600_000) / span;
  }
}
