import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const MAX_DIFF_CHARS = 40_000;

export interface SalvagedWork {
  branch: string;
  /** The earlier run's diff against the task's base (possibly shortened), or a note why it is missing. */
  diff: string;
  truncated: boolean;
}

/**
 * The earlier attempt's salvaged work, for a new attempt's prompt. The
 * worktree already starts from it; the diff tells the agent what is there.
 * Read from the earlier run's saved patch (`.switchyard/runs/<run>/diff.patch`
 * of the repository that owns this worktree), else from the salvage commit.
 */
export async function readSalvagedWork(
  workspaceDir: string,
  resume: { runId: string; salvageBranch?: string } | undefined,
): Promise<SalvagedWork | undefined> {
  if (!resume?.salvageBranch) return undefined;
  const patch = (await savedPatch(workspaceDir, resume.runId)) ?? (await lastCommitDiff(workspaceDir));
  const diff = patch ?? '(the salvaged diff could not be read; inspect the working tree and `git log`)';
  const truncated = diff.length > MAX_DIFF_CHARS;
  return { branch: resume.salvageBranch, diff: truncated ? diff.slice(0, MAX_DIFF_CHARS) : diff, truncated };
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

async function git(cwd: string, args: string[]): Promise<string | undefined> {
  const { execa } = await import('execa');
  const result = await execa('git', args, { cwd, reject: false, stdin: 'ignore' });
  return result.exitCode === 0 ? String(result.stdout) : undefined;
}
