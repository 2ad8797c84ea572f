import { access, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { SwitchyardError } from '../errors';
import { describeZodError } from '../model/zodIssues';
import { contentCopyPath, keepContentCopy } from './keepContentCopy';

/**
 * One JSON document (the files backend's working set), validated with zod on
 * read and written atomically (temp file → fsync → rename → fsync dir). A
 * file that cannot be read or parsed is never overwritten: the read throws an error
 * naming the file and the problem, after keeping one backup copy per
 * damaged content (named after its hash, so reading the same damaged file
 * again adds no copy). A document whose numeric `version` is above
 * `options.version` was written by a newer Switchyard: the error says so,
 * naming both versions, and the file is left alone.
 */
export class AtomicJsonFile<T> {
  constructor(
    readonly path: string,
    private readonly schema: z.ZodType<T>,
    private readonly options: { version?: number } = {},
  ) {}

  async read(): Promise<T | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new SwitchyardError('store-corrupt', `cannot read ${this.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return this.decode(bytes);
  }

  /** Parses and validates bytes read from the file (the same checks, backup and errors as `read`). */
  async decode(bytes: Buffer): Promise<T> {
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw await this.corrupt(bytes, `is not valid JSON (${(error as Error).message})`);
    }
    const newer = this.newerVersion(json);
    if (newer !== undefined) {
      throw new SwitchyardError(
        'store-newer-version',
        `${this.path} was written by a newer Switchyard (state version ${newer}; this Switchyard reads version ${this.options.version}). Upgrade Switchyard to use this project; the file is left as it is`,
      );
    }
    const parsed = this.schema.safeParse(json);
    if (!parsed.success)
      throw await this.corrupt(bytes, `does not match the expected shape: ${describeZodError(parsed.error)}`);
    return parsed.data;
  }

  /** Writes `data` atomically; the text written. */
  async write(data: T): Promise<string> {
    const temp = `${this.path}.${process.pid}.tmp`;
    const text = `${JSON.stringify(data, null, 2)}\n`;
    // The folder is made only when it is missing (the first write), not asked for at every write.
    const handle = await open(temp, 'w').catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      await mkdir(dirname(this.path), { recursive: true });
      return open(temp, 'w');
    });
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.path);
    const dir = await open(dirname(this.path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    return text;
  }

  private newerVersion(json: unknown): number | undefined {
    const current = this.options.version;
    if (current === undefined || json === null || typeof json !== 'object') return undefined;
    const version = (json as { version?: unknown }).version;
    return typeof version === 'number' && version > current ? version : undefined;
  }

  /**
   * The error for a damaged file, after copying the bytes that were read to `<file>.corrupt-<sha256 prefix>.bak` unless
   * that copy exists.
   */
  private async corrupt(bytes: Buffer, problem: string): Promise<SwitchyardError> {
    const backup = contentCopyPath(this.path, bytes, 'corrupt');
    let kept: string | undefined;
    try {
      if (
        await access(backup).then(
          () => true,
          () => false,
        )
      )
        return this.corruptError(problem, backup);
      await keepContentCopy(this.path, bytes, 'corrupt');
      kept = backup;
    } catch {
      // The original stays untouched either way.
    }
    return this.corruptError(problem, kept);
  }

  private corruptError(problem: string, backup: string | undefined): SwitchyardError {
    const kept = backup ? `; a copy was kept at ${backup}` : '';
    return new SwitchyardError(
      'store-corrupt',
      `${this.path} ${problem}. Switchyard will not overwrite it: fix or remove the file${kept}`,
    );
  }
}
