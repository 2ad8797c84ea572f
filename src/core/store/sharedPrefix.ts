/**
 * A composed list (a state's tasks or runs) that begins with the first `length` entries of `of`: the history's shared,
 * frozen, append-only array. Readers that keep something per entry skip that part by identity instead of walking it.
 */
export interface SharedPrefix<T> {
  readonly of: readonly T[];
  readonly length: number;
}

const prefixes = new WeakMap<readonly unknown[], SharedPrefix<unknown>>();

/** Records that `list` was composed as `of` (its first `of.length` entries, as they are now) followed by others. */
export function markSharedPrefix<T>(list: readonly T[], of: readonly T[]): void {
  prefixes.set(list, { of, length: of.length });
}

/**
 * The shared prefix `list` was composed with, if it still holds as far as a cheap look tells (the list is at least as
 * long and its last shared entry is in place): entries are only ever appended to a shared array, and no code replaces
 * or removes a state's entries in place (a change copies the list or pushes to it).
 */
export function sharedPrefixOf<T>(list: readonly T[]): SharedPrefix<T> | undefined {
  const prefix = prefixes.get(list) as SharedPrefix<T> | undefined;
  if (!prefix || list.length < prefix.length) return undefined;
  if (prefix.length && list[prefix.length - 1] !== prefix.of[prefix.length - 1]) return undefined;
  return prefix;
}

/**
 * The entries after the shared prefix (all of `list` when it has none). The history holds only finished tasks with no
 * run RUNNING, and none of a task in the working set: what concerns an unfinished task or a running run is here.
 */
export function afterShared<T>(list: readonly T[]): readonly T[] {
  const shared = sharedPrefixOf(list);
  return shared ? list.slice(shared.length) : list;
}
