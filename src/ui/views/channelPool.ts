import { plainLine } from '../../core/text/plainText';

/** What the pool keeps: anything it can close (an output channel). */
export interface Closable {
  dispose(): void;
}

/**
 * At most `max` open things by key, the least recently used closed first when one more opens (pure: no `vscode`).
 * `get` and `open` count as a use; `close` and `retain` close on request.
 */
export class ChannelPool<T extends Closable> {
  // A Map iterates in insertion order: a use re-inserts the key, so the first key is the least recently used.
  private readonly open = new Map<string, T>();

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`a channel pool holds at least 1, got ${max}`);
  }

  get size(): number {
    return this.open.size;
  }

  keys(): string[] {
    return [...this.open.keys()];
  }

  /** The open thing of `key` (a use), or undefined. */
  get(key: string): T | undefined {
    const found = this.open.get(key);
    if (found === undefined) return undefined;
    this.open.delete(key);
    this.open.set(key, found);
    return found;
  }

  /** The open thing of `key`, or a new one from `create`; closes the least recently used beyond `max`. */
  obtain(key: string, create: () => T): T {
    const found = this.get(key);
    if (found !== undefined) return found;
    const created = create();
    this.open.set(key, created);
    for (const [old, value] of this.open) {
      if (this.open.size <= this.max) break;
      this.open.delete(old);
      value.dispose();
    }
    return created;
  }

  /** Closes the thing of `key`, if open. */
  close(key: string): void {
    const found = this.open.get(key);
    if (found === undefined) return;
    this.open.delete(key);
    found.dispose();
  }

  /** Closes every open thing whose key `keep` rejects; returns the keys closed. */
  retain(keep: (key: string) => boolean): string[] {
    const closed = this.keys().filter((key) => !keep(key));
    for (const key of closed) this.close(key);
    return closed;
  }

  dispose(): void {
    for (const value of this.open.values()) value.dispose();
    this.open.clear();
  }
}

/** How much of a task's title its channel's name keeps. */
const TITLE_CHARS = 40;

/**
 * A task's output channel name, "Switchyard: t3 · Fix the parser": the title is untrusted, so it is one line of
 * plain text (no control or reordering characters) and cut to 40 characters with an ellipsis.
 */
export function taskChannelName(taskId: string, title: string | undefined): string {
  const plain = plainLine(title ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const short = [...plain].length > TITLE_CHARS ? `${[...plain].slice(0, TITLE_CHARS - 1).join('')}…` : plain;
  return short ? `Switchyard: ${plainLine(taskId)} · ${short}` : `Switchyard: ${plainLine(taskId)}`;
}

/** The task of a run id (`t3.2` → `t3`: a run is numbered after its task, see newRun). */
export function taskIdOfRun(runId: string): string {
  const dot = runId.lastIndexOf('.');
  return dot > 0 ? runId.slice(0, dot) : runId;
}

/** The line that opens a run's part of its task's channel: "──── run t3.2 · attempt 2 · lane codex ────". */
export function runSeparator(runId: string, details: readonly string[] = []): string {
  return `──── run ${[runId, ...details].map((p) => plainLine(p)).join(' · ')} ────`;
}
