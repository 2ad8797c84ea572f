import { z } from 'zod';
import type { Task } from '../../core/model/task';
import { TASK_STATES } from '../../core/model/taskStates';
import { plainLine } from '../../core/text/plainText';

/**
 * The Tasks view's filter (pure: no `vscode`): the states and lanes a task must be in (empty: any) and a text its id,
 * title or spec must contain (case-insensitive). Kept in the workspace's state, so it is read back with the schema.
 */
export const TaskFilterSchema = z
  .object({
    states: z.array(z.enum(TASK_STATES)).default([]),
    lanes: z.array(z.string()).default([]),
    text: z.string().default(''),
  })
  .strict();

export type TaskFilter = z.infer<typeof TaskFilterSchema>;

export const NO_FILTER: TaskFilter = { states: [], lanes: [], text: '' };

/** A stored or given filter, or no filter when it is not one (an old or damaged stored value). */
export function readTaskFilter(value: unknown): TaskFilter {
  const parsed = TaskFilterSchema.safeParse(value ?? {});
  if (!parsed.success) return NO_FILTER;
  return { ...parsed.data, text: parsed.data.text.trim() };
}

/** True when the filter leaves some task out. */
export function isFiltering(filter: TaskFilter): boolean {
  return filter.states.length > 0 || filter.lanes.length > 0 || filter.text.length > 0;
}

/** Whether the view shows `task`, whose next run would use `lane`. */
export function taskMatches(filter: TaskFilter, task: Task, lane: string): boolean {
  if (filter.states.length && !filter.states.includes(task.state)) return false;
  if (filter.lanes.length && !filter.lanes.includes(lane)) return false;
  if (!filter.text) return true;
  const needle = filter.text.toLowerCase();
  return [task.id, task.spec.title, task.spec.spec].some((s) => s.toLowerCase().includes(needle));
}

/** The view's description while it filters: "Filter: FAILED, READY · lane codex · “parser”" (plain one line). */
export function filterDescription(filter: TaskFilter): string | undefined {
  if (!isFiltering(filter)) return undefined;
  const parts = [
    ...(filter.states.length ? [filter.states.join(', ')] : []),
    ...(filter.lanes.length ? [`lane ${filter.lanes.join(', ')}`] : []),
    ...(filter.text ? [`“${filter.text}”`] : []),
  ];
  return plainLine(`Filter: ${parts.join(' · ')}`);
}
