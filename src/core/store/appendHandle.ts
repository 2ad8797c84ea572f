import { type FileHandle, open } from 'node:fs/promises';

/** A handle not written to for this long is closed (the next append opens the file again). */
export const HANDLE_IDLE_MS = 1_000;

/**
 * Appends to one file through a handle kept open between appends: an `appendFile` per append opens and closes the
 * file each time, two more round trips through the thread pool than the write itself. The handle is closed by
 * `close()`, after a second without an append, and after a failed append; the next append opens the file again (in
 * append mode, creating it if it is gone). Callers append one at a time.
 */
export class AppendHandle {
  private handle: Promise<FileHandle> | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(readonly file: string) {}

  async append(data: string | Buffer): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    try {
      this.handle ??= open(this.file, 'a');
      await (await this.handle).appendFile(data);
    } catch (error) {
      await this.close();
      throw error;
    }
    // Unreferenced: an open handle never keeps the process alive (the kernel closes it at exit; what was appended is
    // in the file already).
    this.idle = setTimeout(() => void this.close(), HANDLE_IDLE_MS);
    this.idle.unref();
  }

  /** Closes the handle, if open; a later append opens the file again. */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.then((h) => h.close()).catch(() => undefined);
  }
}
