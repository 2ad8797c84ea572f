import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

export type BinaryLookup = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Finds a CLI's executable: the lane's `binary` setting first (an absolute
 * path, or a name looked up on PATH), else the first of `names` on the lane's
 * PATH. A miss is a sentence that says where it looked and how to fix it.
 */
export async function findBinary(
  laneId: string,
  cli: string,
  names: readonly string[],
  setting: string | undefined,
  path: string | undefined,
): Promise<BinaryLookup> {
  const fix = `set the lane's binary (switchyard lanes set ${laneId} binary=/path/to/${names[0]}) or put ${names[0]} on PATH`;
  if (setting && (isAbsolute(setting) || setting.includes('/'))) {
    if (!isAbsolute(setting)) {
      return {
        ok: false,
        reason: `lane "${laneId}": the binary setting "${setting}" is a relative path; give an absolute path or a name to look up on PATH`,
      };
    }
    const problem = await notExecutable(setting);
    return problem
      ? { ok: false, reason: `lane "${laneId}": the binary setting points to ${setting}, which ${problem}` }
      : { ok: true, path: setting };
  }
  const wanted = setting ? [setting] : names;
  const dirs = (path ?? '').split(delimiter).filter(Boolean);
  for (const name of wanted) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (!(await notExecutable(candidate))) return { ok: true, path: candidate };
    }
  }
  const searched = dirs.length ? dirs.join(delimiter) : '(PATH is empty)';
  return {
    ok: false,
    reason: `lane "${laneId}" cannot find the ${cli} CLI: ${wanted.map((n) => `\`${n}\``).join(' or ')} is not on PATH (${searched}); ${fix}`,
  };
}

async function notExecutable(file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info) return 'does not exist';
  if (!info.isFile()) return 'is not a file';
  return access(file, constants.X_OK).then(
    () => undefined,
    () => 'is not executable',
  );
}
