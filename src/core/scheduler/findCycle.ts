/**
 * Finds a dependency cycle, iteratively (deep DAGs do not overflow the
 * stack). Returns the cycle as a path that starts and ends with the same
 * task (`['a', 'b', 'c', 'a']`), or undefined when the graph is acyclic.
 * Edges to unknown ids are ignored.
 */
export function findCycle(nodes: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const color = new Map<string, 1 | 2>(); // 1: on the current path, 2: finished
  for (const root of nodes.keys()) {
    if (color.has(root)) continue;
    const path: string[] = [root];
    const next: number[] = [0];
    color.set(root, 1);
    while (path.length) {
      const id = path[path.length - 1]!;
      const deps = nodes.get(id) ?? [];
      const i = next[next.length - 1]!;
      if (i >= deps.length) {
        color.set(id, 2);
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const dep = deps[i]!;
      if (!nodes.has(dep)) continue;
      const c = color.get(dep);
      if (c === 1) return [...path.slice(path.indexOf(dep)), dep];
      if (c === undefined) {
        color.set(dep, 1);
        path.push(dep);
        next.push(0);
      }
    }
  }
  return undefined;
}

/** `dependency cycle: build → test → build` with the names the caller gives. */
export function describeCycle(cycle: readonly string[], name: (id: string) => string = (id) => id): string {
  return `dependency cycle: ${cycle.map(name).join(' → ')}`;
}
