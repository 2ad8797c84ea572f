import type { ProcessGroupRecord } from '../process/processGroupRecord';
import type { LeaseStore } from './leaseStore';

/**
 * Holds a run's lease: renews it every third of its duration while the
 * backend still names this owner, and calls `onLost` once another process
 * has taken the run over. Takeovers are decided in the backend's state
 * transaction, so two processes never both hold a run.
 */
export class RunLease {
  private timer: NodeJS.Timeout | undefined;
  private groupWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly leases: LeaseStore,
    readonly runId: string,
    readonly owner: string,
    private readonly durationMs: number,
    private readonly onLost: (by: string) => void,
  ) {}

  /** Writes the lease (unless `alreadyWritten` by a takeover) and starts renewing it. */
  async start(alreadyWritten = false): Promise<void> {
    if (!alreadyWritten) await this.leases.acquire(this.runId, this.owner, this.durationMs);
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.durationMs / 3)));
    this.timer.unref();
  }

  /** Records the process groups the run has alive now (see runGroups.ts); writes are applied in order. */
  recordGroups(groups: ProcessGroupRecord[]): Promise<void> {
    this.groupWrites = this.groupWrites
      .then(() => this.leases.recordGroups(this.runId, this.owner, groups))
      .catch(() => undefined);
    return this.groupWrites;
  }

  async release(): Promise<void> {
    await this.groupWrites;
    this.stop();
    await this.leases.release(this.runId, this.owner).catch(() => undefined);
  }

  /** Stops renewing and expires the lease now, so another process resumes the run at once. */
  async handBack(): Promise<void> {
    this.stop();
    await this.leases.handBack(this.runId, this.owner).catch(() => undefined);
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async renew(): Promise<void> {
    // A renewal that fails (backend unreachable for a moment) is retried at the next tick; the lease lasts three ticks.
    const lostTo = await this.leases.renew(this.runId, this.owner, this.durationMs).catch(() => undefined);
    if (lostTo && this.timer) {
      this.stop();
      this.onLost(lostTo);
    }
  }
}
