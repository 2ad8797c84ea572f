import { type QueueCounts, queueCounts } from './queueCounts';

/** The counts of a state file's text, or undefined when it is not the shape this reader knows. */
export function countsOf(text: string): QueueCounts | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Mid-write or damaged: the project's own reader says what is wrong.
    return undefined;
  }
  const tasks = (value as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return undefined;
  const states = tasks.map((t) => (t as { state?: unknown } | null)?.state);
  if (!states.every((s) => typeof s === 'string')) return undefined;
  return queueCounts({ tasks: states.map((state) => ({ state })) });
}
