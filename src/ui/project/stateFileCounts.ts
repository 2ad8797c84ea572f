import { CONTEXT_KEYS as PULL_REQUEST_KEYS } from '../commandIds';
import { CONTEXT_KEYS } from '../views/contextKeyValues';
import { type QueueCounts, queueCounts } from './queueCounts';

/** The counts of a state file's text, or undefined when it is not the shape this reader knows. */
export function countsOf(text: string): QueueCounts | undefined {
  return readStateFile(text)?.counts;
}

/**
 * The counts and the menus' context keys (see views/contextKeys.ts) of a state file's text, read as plain JSON, or
 * undefined when it is not the shape this reader knows. Only `hasRun`, `hasDoneTask`, `hasSalvage`, `canaryActive`
 * and `hasPullRequest`: the rest needs the project opened.
 */
export function readStateFile(text: string): { counts: QueueCounts; contextKeys: Record<string, boolean> } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Mid-write or damaged: the project's own reader says what is wrong.
    return undefined;
  }
  const counts = countsOfValue(value);
  if (!counts) return undefined;
  const record = value as { tasks: unknown[]; runs?: unknown; routing?: { canary?: unknown } | null };
  const runs = (Array.isArray(record.runs) ? record.runs : []) as ({
    salvage?: unknown;
    pullRequest?: unknown;
  } | null)[];
  const tasks = record.tasks as ({ state?: unknown; integration?: { pullRequest?: unknown } } | null)[];
  return {
    counts,
    contextKeys: {
      [CONTEXT_KEYS.hasRun]: runs.length > 0,
      [CONTEXT_KEYS.hasDoneTask]: tasks.some((t) => t?.state === 'DONE'),
      [CONTEXT_KEYS.hasSalvage]: runs.some((r) => !!r?.salvage),
      [CONTEXT_KEYS.canaryActive]: !!record.routing?.canary,
      [PULL_REQUEST_KEYS.hasPullRequest]:
        runs.some((r) => !!r?.pullRequest) || tasks.some((t) => !!t?.integration?.pullRequest),
    },
  };
}

function countsOfValue(value: unknown): QueueCounts | undefined {
  const tasks = (value as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return undefined;
  const states = tasks.map((t) => (t as { state?: unknown } | null)?.state);
  if (!states.every((s) => typeof s === 'string')) return undefined;
  return queueCounts({ tasks: states.map((state) => ({ state })) });
}
