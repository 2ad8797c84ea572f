import type { z } from 'zod';
import { Run } from '../model/run';
import { Task } from '../model/task';
import { ProjectState } from '../store/projectState';

const Head = ProjectState.omit({ tasks: true, runs: true, revision: true });
const KEYS = Object.keys(ProjectState.shape) as (keyof ProjectState)[];

interface Known {
  head: string;
  tasks: Map<string, string>;
  runs: Map<string, string>;
}

/**
 * What the last valid working set held, as JSON text per task, per run and for the rest: checking the next one
 * validates with zod only what differs from it (an update changes a task or two, not all of them). The outcome is
 * the one `ProjectState.safeParse` gives, which also words any error.
 */
export class ValidationMemo {
  private base: ProjectState | undefined;
  private known: Known | undefined;
  /**
   * Whether the state of the last successful `check` differs from the one remembered before it (the revision aside):
   * any text of the rest, of a task or of a run, or their order. True when there was nothing to compare with.
   */
  changed = true;

  /** `state` is valid (read and validated, or just written): the next check compares with it. */
  remember(state: ProjectState): void {
    this.base = state;
    this.known = undefined;
  }

  check(state: ProjectState): ReturnType<typeof ProjectState.safeParse> {
    const known = this.knownOf();
    this.changed = true;
    if (!known) return this.whole(state);
    const { tasks, runs, revision, ...head } = state;
    const next: Known = { head: JSON.stringify(head), tasks: new Map(), runs: new Map() };
    const headChanged = next.head !== known.head;
    let headOut: Partial<ProjectState> = head;
    if (next.head !== known.head) {
      const parsed = Head.safeParse(head);
      if (!parsed.success) return this.whole(state);
      headOut = parsed.data;
      next.head = JSON.stringify(parsed.data);
    }
    const outTasks = each(tasks, Task, known.tasks, next.tasks);
    const outRuns = outTasks && each(runs, Run, known.runs, next.runs);
    if (!outTasks || !outRuns || !Number.isInteger(revision) || (revision ?? 0) < 0) return this.whole(state);
    const all: Record<string, unknown> = { ...headOut, tasks: outTasks, runs: outRuns, revision: revision ?? 0 };
    const data = Object.fromEntries(KEYS.filter((k) => k in all).map((k) => [k, all[k]])) as ProjectState;
    this.base = undefined;
    this.changed = headChanged || !sameEntries(known.tasks, next.tasks) || !sameEntries(known.runs, next.runs);
    this.known = next;
    return { success: true, data } as ReturnType<typeof ProjectState.safeParse>;
  }

  /** The whole state validated at once (no memo, or something is wrong: its error names the path). */
  private whole(state: ProjectState): ReturnType<typeof ProjectState.safeParse> {
    const checked = ProjectState.safeParse(state);
    if (checked.success) this.remember(checked.data);
    return checked;
  }

  private knownOf(): Known | undefined {
    if (this.known || !this.base) return this.known;
    const { tasks, runs, revision: _r, ...head } = this.base;
    this.known = {
      head: JSON.stringify(head),
      tasks: new Map(tasks.map((t) => [t.id, JSON.stringify(t)])),
      runs: new Map(runs.map((r) => [r.id, JSON.stringify(r)])),
    };
    this.base = undefined;
    return this.known;
  }
}

/** `list` with each entry that differs from `known` validated; undefined when one is invalid. */
function each<T extends { id: string }>(
  list: readonly T[],
  schema: z.ZodType<T>,
  known: ReadonlyMap<string, string>,
  next: Map<string, string>,
): T[] | undefined {
  const out: T[] = [];
  for (const entry of list) {
    const text = JSON.stringify(entry);
    if (known.get(entry.id) === text) {
      out.push(entry);
      next.set(entry.id, text);
      continue;
    }
    const parsed = schema.safeParse(entry);
    if (!parsed.success) return undefined;
    out.push(parsed.data);
    next.set(parsed.data.id, JSON.stringify(parsed.data));
  }
  return out;
}

/** The same entries with the same texts, in the same order. */
function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  const other = b.entries();
  for (const [id, text] of a) {
    const [otherId, otherText] = other.next().value as [string, string];
    if (id !== otherId || text !== otherText) return false;
  }
  return true;
}
