import { CheckNode, PullRequestNode, RunNode, TaskNode } from '../views/taskTreeNodes';

/**
 * The task id in a command argument: an id string, a Tasks tree element, or
 * an object with `taskId`, `task.id` or `id` (`task:t1` as the tree item id).
 * Undefined means "no argument: ask" (also for an object with none of those keys).
 */
export function taskIdFrom(arg: unknown): string | undefined {
  if (arg instanceof TaskNode) return arg.task.id;
  if (arg instanceof PullRequestNode || arg instanceof CheckNode) return arg.taskId;
  return idFrom(arg, 'taskId', 'task');
}

/** The run id in a command argument: an id string, a run tree element, or `{runId}` / `{run: {id}}` / `{id}`. */
export function runIdFrom(arg: unknown): string | undefined {
  if (arg instanceof RunNode) return arg.run.id;
  return idFrom(arg, 'runId', 'run');
}

function idFrom(arg: unknown, key: string, nested: string): string | undefined {
  if (arg === undefined || arg === null) return undefined;
  if (typeof arg === 'string') return unprefixed(arg, key, nested);
  if (typeof arg !== 'object') throw new Error(`expected a ${nested} id or a ${nested} item, got ${typeof arg}`);
  const record = arg as Record<string, unknown>;
  // VS Code passes editor options (`{preserveFocus: false}`) when it runs a command through some gestures; an object
  // that names no id at all is "no argument: ask", not an error.
  if (!(key in record) && !(nested in record) && !('id' in record)) return undefined;
  const inner = record[nested] as Record<string, unknown> | undefined;
  const candidate = record[key] ?? (typeof inner === 'object' && inner !== null ? inner.id : undefined) ?? record.id;
  if (typeof candidate !== 'string')
    throw new Error(`expected a ${nested} id or a ${nested} item, got ${describeArg(arg)}`);
  return unprefixed(candidate, key, nested);
}

/** `t1`, or `task:t1` as the tree item id has it. */
function unprefixed(value: string, key: string, nested: string): string {
  return nonEmpty(value.startsWith(`${nested}:`) ? value.slice(nested.length + 1) : value, key);
}

function nonEmpty(value: string, key: string): string {
  if (!value.trim()) throw new Error(`${key} must not be empty`);
  return value.trim();
}

/** A lane id argument: a string, or undefined for "ask". */
export function laneIdFrom(arg: unknown): string | undefined {
  if (arg === undefined || arg === null) return undefined;
  // VS Code passes editor options (`{preserveFocus: false}`) when it runs a command through some gestures (a view's
  // title menu): they name no lane, so they mean "no argument: ask", not an error.
  if (isEditorOptions(arg)) return undefined;
  if (typeof arg !== 'string') throw new Error(`expected a lane id (a string), got ${describeArg(arg)}`);
  return nonEmpty(arg, 'lane');
}

/** Send to Lane's options object (`{lane?, instruction?}`), as opposed to what a menu passes after the uri. */
export function isSendOptions(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && ('lane' in value || 'instruction' in value)
  );
}

/**
 * What an argument is, for an error message: its type and shape, never its content (an object may be a task with its
 * spec, a string may be a secret handed to the wrong parameter).
 */
export function describeArg(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value !== 'object')
    return typeof value === 'string' ? `a string of ${value.length} characters` : typeof value;
  const keys = Object.keys(value);
  if (!keys.length) return 'an empty object';
  return `an object with ${keys.length > 4 ? `${keys.slice(0, 4).join(', ')}…` : keys.join(', ')}`;
}

/** Keys of the editor options (`{preserveFocus, preview…}`) VS Code hands a command run through some gestures. */
const EDITOR_OPTION_KEYS = new Set(['preserveFocus', 'preview', 'viewColumn', 'pinned', 'revealIfOpened', 'selection']);

/** VS Code's editor options object (`{preserveFocus: false}`): no data for any command. */
export function isEditorOptions(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => EDITOR_OPTION_KEYS.has(key));
}
