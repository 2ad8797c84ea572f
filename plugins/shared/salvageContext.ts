import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type LaneRunInput, startProcessGroup } from '../../src/api';

const MAX_DIFF_CHARS = 40_000;
const MAX_DIFF_BYTES = 4 * MAX_DIFF_CHARS;

export interface SalvagedWork {
  /** The branch holding the earlier run's work (its salvage branch, or its own branch). */
  branch: string;
  /** The earlier run's diff against the task's base (possibly shortened), or a note why it is missing. */
  diff: string;
  truncated: boolean;
}

/**
 * The earlier run's work, for a new attempt's prompt: its salvaged work (the
 * worktree already starts from it), or a change the worktree does not hold
 * (it starts from the target's head or the task's base: `start` says so).
 * Read from the earlier run's saved patch (`.switchyard/runs/<run>/diff.patch`
 * of the repository that owns this worktree), else from git.
 */
export async function readSalvagedWork(
  workspaceDir: string,
  resume: LaneRunInput['resume'],
): Promise<SalvagedWork | undefined> {
  const branch = resume?.salvageBranch ?? (resume?.start !== 'earlier-work' ? resume?.workBranch : undefined);
  if (!resume || !branch) return undefined;
  const inWorktree = resume.start === undefined || resume.start === 'earlier-work';
  const patch =
    (await savedPatch(workspaceDir, resume.runId)) ??
    (inWorktree ? await lastCommitDiff(workspaceDir) : await branchDiff(workspaceDir, branch));
  const diff = patch ?? `(the earlier diff could not be read; inspect \`git log ${branch}\`)`;
  const truncated = diff.length > MAX_DIFF_CHARS;
  return { branch, diff: truncated ? diff.slice(0, MAX_DIFF_CHARS) : diff, truncated };
}

async function savedPatch(workspaceDir: string, runId: string): Promise<string | undefined> {
  const common = await git(workspaceDir, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (!common) return undefined;
  const file = join(dirname(common.trim()), '.switchyard', 'runs', runId, 'diff.patch');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text?.trim() ? text : undefined;
}

async function lastCommitDiff(workspaceDir: string): Promise<string | undefined> {
  const text = await git(workspaceDir, ['show', '--format=', '--patch', 'HEAD']);
  return text?.trim() ? text : undefined;
}

/** What `branch` changed since it left the worktree's history. */
async function branchDiff(workspaceDir: string, branch: string): Promise<string | undefined> {
  const text = await git(workspaceDir, ['diff', `HEAD...${branch}`, '--']);
  return text?.trim() ? text : undefined;
}

/**
 * The output of `git <args>` in `cwd`, or `undefined` when it fails. git runs as a process group of the lane's
 * (startProcessGroup, like every process a lane starts), with this process's environment; of its output only what the
 * prompt can use is kept (MAX_DIFF_CHARS characters of UTF-8 are at most four times as many bytes).
 */
async function git(cwd: string, args: string[]): Promise<string | undefined> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  const group = startProcessGroup({ file: 'git', args, cwd, env });
  const chunks: Buffer[] = [];
  let kept = 0;
  group.stdout.on('data', (chunk: Buffer) => {
    if (kept > MAX_DIFF_BYTES) return;
    chunks.push(chunk);
    kept += chunk.length;
  });
  group.stderr.resume();
  const exit = await group.done;
  return exit.exitCode === 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
}
