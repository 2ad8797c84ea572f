import { TRACE_FILE, TraceLine } from '../store/traceLog';
import { GuardEvent, guardLogPath } from '../guards/guardLog';
import { describeZodError } from '../model/zodIssues';
import { STATE_DIR } from '../store/stateDir';
import { readWorktreeUsage, type WorktreeUsage } from '../workspace/worktreeUsage';
import { join } from 'node:path';
import { JsonlTail } from './jsonlTail';
import type { PanelSources } from './buildPanelView';

/** How many guard verdicts and trace lines are kept in memory (the newest). */
export const KEEP_GUARDS = 2_000;
export const KEEP_TRACE = 2_000;

/**
 * Keeps the newest guard verdicts and scheduler trace lines of a repository
 * in memory, reading only what was appended since the last `refresh()`. A
 * guard line that is not a valid verdict is skipped and reported (the rest
 * still shows); trace lines are kept as they are (the view reads them
 * defensively).
 */
export class PanelSourceReader {
  private readonly guardTail: JsonlTail;
  private readonly traceTail: JsonlTail;
  private guards: GuardEvent[] = [];
  private guardTotal = 0;
  private guardProblem: string | undefined;
  private trace: TraceLine[] = [];
  private traceSeen = false;
  private worktrees: WorktreeUsage | undefined;

  constructor(readonly root: string) {
    this.guardTail = new JsonlTail(guardLogPath(root));
    this.traceTail = new JsonlTail(join(root, STATE_DIR, TRACE_FILE));
  }

  /** Reads what was appended; true when anything changed. */
  async refresh(): Promise<boolean> {
    const [g, t, w] = await Promise.all([
      this.guardTail.read(),
      this.traceTail.read(),
      readWorktreeUsage(this.root).catch(() => undefined),
    ]);
    let changed = w?.count !== this.worktrees?.count || w?.bytes !== this.worktrees?.bytes;
    this.worktrees = w;
    if (g.reset) {
      this.guards = [];
      this.guardTotal = 0;
      changed = true;
    }
    if (g.lines.length) changed = true;
    for (const raw of g.lines) {
      const parsed = GuardEvent.safeParse(raw);
      if (parsed.success) {
        this.guards.push(parsed.data);
        this.guardTotal += 1;
      } else {
        this.guardProblem = `a line of ${guardLogPath(this.root)} is not a guard verdict (skipped): ${describeZodError(parsed.error)}`;
      }
    }
    if (g.bad) {
      this.guardProblem = `${g.bad} line(s) of ${guardLogPath(this.root)} are not JSON (skipped)`;
      changed = true;
    }
    if (this.guards.length > KEEP_GUARDS) this.guards = this.guards.slice(-KEEP_GUARDS);
    // The trace rotates (trace.jsonl → trace.1.jsonl): what was read stays; new lines follow.
    if (!t.missing) this.traceSeen = true;
    if (t.lines.length) {
      for (const raw of t.lines) {
        const parsed = TraceLine.safeParse(raw);
        if (parsed.success) this.trace.push(parsed.data);
      }
      if (this.trace.length > KEEP_TRACE) this.trace = this.trace.slice(-KEEP_TRACE);
      changed = true;
    }
    return changed;
  }

  sources(): PanelSources {
    return {
      guards: this.guards,
      guardTotal: this.guardTotal,
      ...(this.guardProblem ? { guardProblem: this.guardProblem } : {}),
      ...(this.traceSeen || this.trace.length ? { trace: this.trace } : {}),
      ...(this.worktrees ? { worktreeUsage: this.worktrees } : {}),
    };
  }
}
