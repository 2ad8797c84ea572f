import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { untilValue } from '../../helpers/until';

/** What the tests read of `.switchyard/state.json` (the store validates the whole shape). */
export interface StoredTask {
  id: string;
  state: string;
  failureReason?: string;
  lastRunId?: string;
  spec: { title: string; spec: string; files: string[]; lane?: string };
}
export interface StoredRun {
  id: string;
  taskId: string;
  lane: string;
  state: string;
  failureReason?: string;
  worktree: string;
  salvage?: { branch: string; commit: string; files: number };
}
export interface StoredState {
  tasks: StoredTask[];
  runs: StoredRun[];
}

export function readState(root: string): StoredState {
  return JSON.parse(readFileSync(join(root, '.switchyard', 'state.json'), 'utf8')) as StoredState;
}

export function storedTask(root: string, id: string): StoredTask {
  const task = readState(root).tasks.find((t) => t.id === id);
  if (!task) throw new Error(`task ${id} is not in ${root}/.switchyard/state.json`);
  return task;
}

const FINAL = new Set(['DONE', 'FAILED', 'CANCELED']);

/** Polls the state file until task `id` is DONE, FAILED or CANCELED. */
export function waitForFinalState(root: string, id: string, timeoutMs = 30_000): Promise<StoredTask> {
  return untilValue(
    `task ${id} to reach a final state`,
    () => {
      const task = storedTask(root, id);
      return FINAL.has(task.state) ? task : undefined;
    },
    timeoutMs,
    100,
  );
}

/** `git status` as the user sees it, minus Switchyard's own folder. */
export function userGitStatus(root: string): string {
  const out = execFileSync('git', ['status', '--porcelain=v1', '--untracked-files=all'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((line) => line && !line.slice(3).startsWith('.switchyard/'))
    .join('\n');
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}
