import { statSync } from 'node:fs';

/**
 * Less than this between a file's last change (its ctime) and the look at it, and the stamp proves nothing: a later
 * change within the same tick of the filesystem's clock would leave inode, size and times as they were. Twice the
 * coarsest common tick (Windows' 15.6 ms; Linux's is 1-10 ms).
 */
const RACY_MS = 32;
/** The same on a filesystem whose times have whole seconds (FAT has 2 s). */
const RACY_COARSE_MS = 2_100;

/**
 * What a file looks like from outside (device, inode, size, mtime and ctime, to the microsecond), or `missing`.
 * `trusted` is false when the file had changed too recently for this stamp to prove anything later: bytes read after
 * it may still change within the same tick without changing the stamp (the racy case: the next look reads it again).
 */
export interface FileStamp {
  key: string;
  trusted: boolean;
}

/**
 * The stamp of `path` now; an error other than a missing file is thrown. One `stat` call, made synchronously: it
 * costs microseconds, a fraction of a round trip through the thread pool and a promise, and it runs on every read.
 */
export function fileStamp(path: string): FileStamp {
  const now = Date.now();
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return { key: 'missing', trusted: true };
  const changed = Math.max(info.ctimeMs, info.mtimeMs);
  const coarse = changed % 1000 === 0;
  const trusted = now - changed >= (coarse ? RACY_COARSE_MS : RACY_MS);
  return { key: `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`, trusted };
}

/**
 * A value derived from one file (parsed and validated), kept while the file's stamp stays the same. A stamp taken too
 * soon after a change is not trusted: the file is read again, and the value is derived again only when its bytes
 * differ from the ones it came from.
 */
export class FileDerived<T> {
  private last: { stamp: FileStamp; bytes: Buffer | undefined; value: T } | undefined;

  constructor(
    readonly path: string,
    /** Reads the file's bytes (`undefined`: missing). */
    private readonly load: () => Promise<Buffer | undefined>,
    /** The value of the bytes; throwing keeps nothing. */
    private readonly derive: (bytes: Buffer | undefined) => T | Promise<T>,
  ) {}

  async get(): Promise<T> {
    // A stamp that cannot be taken proves nothing: the load says what is wrong with the file.
    const stamp = untrustedOnError(this.path);
    const last = this.last;
    // The stamp kept is the one taken before its bytes were read: unchanged and trusted, nothing changed since.
    if (last?.stamp.trusted && last.stamp.key === stamp.key) return last.value;
    const bytes = stamp.key === 'missing' ? undefined : await this.load();
    if (last && sameBytes(last.bytes, bytes)) {
      this.last = { stamp, bytes, value: last.value };
      return last.value;
    }
    const value = await this.derive(bytes);
    this.last = { stamp, bytes, value };
    return value;
  }

  /** Forgets the value (the next `get` reads the file). */
  clear(): void {
    this.last = undefined;
  }
}

function untrustedOnError(path: string): FileStamp {
  try {
    return fileStamp(path);
  } catch {
    return { key: '', trusted: false };
  }
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}
