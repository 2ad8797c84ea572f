import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The most bytes Switchyard puts in one environment variable. Linux refuses
 * to start a process when one `NAME=value` string is over MAX_ARG_STRLEN
 * (128 KiB) and when all arguments and variables together pass ARG_MAX, with
 * E2BIG; 64 KiB keeps a lane's whole environment well inside both.
 */
export const ENV_VALUE_MAX_BYTES = 64 * 1024;

/**
 * Writes the task's spec to `<runFolder>/<name>` (the run's folder under
 * `.switchyard/runs/`, outside the worktree) and returns its path: every
 * lane gets it as SWITCHYARD_TASK_SPEC_FILE, whatever the spec's size.
 */
export async function writeTaskSpecFile(runFolder: string, name: string, spec: string): Promise<string> {
  await mkdir(runFolder, { recursive: true });
  const file = join(runFolder, name);
  await writeFile(file, spec);
  return file;
}

/**
 * SWITCHYARD_TASK_SPEC_FILE (always) and SWITCHYARD_TASK_SPEC: the spec
 * itself when it fits one variable, otherwise its first part (cut at a
 * character boundary) followed by a line saying it was cut and where the
 * whole spec is. A spec holding a NUL, which no variable can carry, is
 * replaced by that line alone.
 */
export function taskSpecEnv(
  spec: string,
  specFile: string,
): { SWITCHYARD_TASK_SPEC: string; SWITCHYARD_TASK_SPEC_FILE: string } {
  return {
    SWITCHYARD_TASK_SPEC: fitEnvValue(spec, 'spec', 'SWITCHYARD_TASK_SPEC_FILE'),
    SWITCHYARD_TASK_SPEC_FILE: specFile,
  };
}

/**
 * `value` when it fits one environment variable; otherwise its first part,
 * cut at a character boundary, and a line saying what was cut (and, given
 * `fileVariable`, where the whole text is). A value holding a NUL, which no
 * variable can carry, becomes that line alone.
 */
export function fitEnvValue(value: string, what: string, fileVariable?: string): string {
  const bytes = Buffer.from(value, 'utf8');
  const hasNul = value.includes('\u0000');
  if (bytes.length <= ENV_VALUE_MAX_BYTES && !hasNul) return value;
  const where = fileVariable
    ? `; the whole ${what} is in the file named by ${fileVariable}`
    : `; cut at ${ENV_VALUE_MAX_BYTES} bytes`;
  const note = `[… the ${what} is ${bytes.length} bytes${hasNul ? ' and holds a NUL character' : ''}, more than an environment variable carries${where}]`;
  if (hasNul) return note;
  let end = ENV_VALUE_MAX_BYTES - Buffer.byteLength(note) - 1;
  // Step back to the start of a character: a UTF-8 continuation byte is 10xxxxxx.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString('utf8')}\n${note}`;
}
