import { copyFile, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { SwitchyardError } from '../errors';
import { describeZodError } from '../model/zodIssues';

/**
 * A lowdb adapter for one JSON document, validated with zod on read and
 * written atomically (temp file → fsync → rename → fsync dir). A file that
 * cannot be read or parsed is never overwritten: the read throws an error
 * naming the file and the problem, after keeping a backup copy.
 */
export class AtomicJsonFile<T> {
  constructor(
    readonly path: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new SwitchyardError('store-corrupt', `cannot read ${this.path}: ${(error as Error).message}`, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw await this.corrupt(`not valid JSON (${(error as Error).message})`);
    }
    const parsed = this.schema.safeParse(json);
    if (!parsed.success) throw await this.corrupt(`does not match the expected shape: ${describeZodError(parsed.error)}`);
    return parsed.data;
  }

  async write(data: T): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(data, null, 2)}\n`);
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
  }

  private async corrupt(problem: string): Promise<SwitchyardError> {
    const backup = `${this.path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
    let kept = '';
    try {
      await copyFile(this.path, backup);
      kept = `; a copy was kept at ${backup}`;
    } catch {
      // The original stays untouched either way.
    }
    return new SwitchyardError(
      'store-corrupt',
      `${this.path} is ${problem}. Switchyard will not overwrite it: fix or remove the file${kept}`,
    );
  }
}
