/** What the scheduler knows of a task. */
export interface SchedTask {
  readonly id: string;
  readonly deps: readonly string[];
  readonly priority: number;
  readonly lane: string;
  readonly files: readonly string[];
  /** Epoch ms at which the urgent flag expires (absent: not urgent). */
  readonly urgentUntil?: number;
  /** Tie-break among equal scores: lower first (the task number). */
  readonly order: number;
  /** Tracked (for dependencies and WIP) but never picked by this scheduler. */
  readonly hold?: boolean;
}
