import { join } from 'node:path';
import { STATE_DIR } from './stateDir';

/** Where run worktrees live: `.switchyard/worktrees/<run>`. */
export const WORKTREES_DIR = join(STATE_DIR, 'worktrees');

/** A run's worktree. */
export function worktreePath(root: string, runId: string): string {
  return join(root, WORKTREES_DIR, runId);
}

/** The branch of a task's attempt: `switchyard/<task>/<attempt>`. */
export function branchName(taskId: string, attempt: number): string {
  return `switchyard/${taskId}/${attempt}`;
}
