import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppendHandle } from './appendHandle';

/**
 * Appends text to a file in batches: whatever was queued while the previous
 * write was in flight goes out in one write. One write at a time, in order;
 * a failed write is dropped (a run's log never fails the run). The file stays open between writes until `flush`.
 */
export class JsonlAppender {
  private queue: (string | Buffer)[] = [];
  private running: Promise<void> | undefined;
  private readonly ready: Promise<unknown>;
  private readonly out: AppendHandle;

  constructor(readonly file: string) {
    this.out = new AppendHandle(file);
    this.ready = mkdir(dirname(file), { recursive: true }).catch(() => undefined);
  }

  write(text: string | Buffer): void {
    if (!text.length) return;
    this.queue.push(text);
    this.running ??= this.drain();
  }

  /** Resolves once everything written so far is in the file, and closes it (a later write opens it again). */
  async flush(): Promise<void> {
    while (this.running !== undefined) await this.running;
    await this.out.close();
  }

  private async drain(): Promise<void> {
    await this.ready;
    while (this.queue.length) {
      const queue = this.queue;
      this.queue = [];
      // Text joined into one write; a buffer (a held tail) written as it is, not copied.
      for (let i = 0; i < queue.length; ) {
        let j = i;
        while (j < queue.length && typeof queue[j] === 'string') j++;
        const batch = j > i ? queue.slice(i, j).join('') : queue[j++]!;
        i = j;
        await this.out.append(batch).catch(() => undefined);
      }
    }
    this.running = undefined;
  }
}
