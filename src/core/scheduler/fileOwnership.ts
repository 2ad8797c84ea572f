/**
 * Which task in progress holds which target file, and which ready tasks wait
 * for a file to be released. Two tasks that declare the same file never run
 * at once; a waiting task is handed back when the file is released, without
 * anyone rescanning the queue.
 */
export class FileOwnership {
  private readonly owners = new Map<string, string>();
  private readonly waiting = new Map<string, Set<string>>();

  /** The first of `files` held by a task other than `id`. */
  conflict(id: string, files: readonly string[]): string | undefined {
    for (const file of files) {
      const owner = this.owners.get(file);
      if (owner !== undefined && owner !== id) return file;
    }
    return undefined;
  }

  holder(file: string): string | undefined {
    return this.owners.get(file);
  }

  claim(id: string, files: readonly string[]): void {
    for (const file of files) this.owners.set(file, id);
  }

  /** Releases `id`'s files; returns the tasks that waited for them. */
  release(id: string, files: readonly string[]): string[] {
    const woken: string[] = [];
    for (const file of files) {
      if (this.owners.get(file) !== id) continue;
      this.owners.delete(file);
      const set = this.waiting.get(file);
      if (!set) continue;
      this.waiting.delete(file);
      woken.push(...set);
    }
    return woken;
  }

  park(id: string, file: string): void {
    const set = this.waiting.get(file);
    if (set) set.add(id);
    else this.waiting.set(file, new Set([id]));
  }
}
