import { HistoryNeeded, isWorkingOnlyList } from './workingOnly';

/**
 * The last entry of `list` with this id, searched from the end: in a composed state the working set follows the
 * history, so what a drain looks up (its own tasks and runs) is found after a few compares. The same entry as
 * `new Map(list.map((e) => [e.id, e])).get(id)`, and as `list.find(...)` when ids are unique (they are in a state).
 * A miss in a working-set-only draft's list throws HistoryNeeded: the store runs the change again on the whole state.
 */
export function lastWithId<T extends { readonly id: string }>(list: readonly T[], id: string): T | undefined {
  const found = lastHere(list, id);
  if (found === undefined && isWorkingOnlyList(list)) throw new HistoryNeeded(`"${id}"`);
  return found;
}

/** `lastWithId` in `list` alone: undefined on a miss, also in a working-set-only draft. */
export function lastHere<T extends { readonly id: string }>(list: readonly T[], id: string): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.id === id) return list[i];
  return undefined;
}
