import { STAGES, type Stage, perStage } from '../../model/stages';

/** How many of this drain's runs are in each stage, and the most there were at once. */
export class StageMeter {
  private readonly at = new Map<string, Stage>();
  readonly peak: Record<Stage, number> = perStage(0);

  enter(taskId: string, stage: Stage): void {
    if (!this.at.has(taskId) && stage !== 'RUNNING') return;
    this.at.set(taskId, stage);
    const n = [...this.at.values()].filter((s) => s === stage).length;
    if (n > this.peak[stage]) this.peak[stage] = n;
  }

  leave(taskId: string): void {
    this.at.delete(taskId);
  }

  counts(): Record<Stage, number> {
    const out = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
    for (const s of this.at.values()) out[s] += 1;
    return out;
  }
}
