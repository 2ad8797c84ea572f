import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunEventLog, diffPath, eventsPath } from '../store/runFiles';
import { SwitchyardError } from '../errors';
import { gitOutput, gitSaid } from '../git/gitExec';
import type { Run } from '../model/run';
import type { StateStore } from '../backend/stateStore';
import { firstLine } from './gitRepo';

const FALLBACK_IDENTITY = ['-c', 'user.name=Switchyard', '-c', 'user.email=switchyard@localhost'];

/** What promote needs of a project: its repository and its store. */
export interface SalvageProject {
  readonly root: string;
  readonly store: StateStore;
}

export interface SalvageEntry {
  runId: string;
  taskId: string;
  title: string;
  state: Run['state'];
  failureReason?: string;
  /** `switchyard/salvage/<run>`, and whether it still exists. */
  branch: string;
  branchExists: boolean;
  commit: string;
  files: number;
  /** The run's saved diff. */
  patch: string;
}

/** Runs whose partial work was salvaged, newest first. */
export async function listSalvage(project: SalvageProject): Promise<SalvageEntry[]> {
  const state = await project.store.read();
  const root = project.root;
  const entries: SalvageEntry[] = [];
  for (const run of [...state.runs].reverse()) {
    if (!run.salvage) continue;
    const at = await gitOutput(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${run.salvage.branch}`]).then(
      (s) => s.trim(),
      () => '',
    );
    entries.push({
      runId: run.id,
      taskId: run.taskId,
      title: state.tasks.find((t) => t.id === run.taskId)?.spec.title ?? run.taskId,
      state: run.state,
      ...(run.failureReason ? { failureReason: run.failureReason } : {}),
      branch: run.salvage.branch,
      branchExists: at === run.salvage.commit,
      commit: run.salvage.commit,
      files: run.salvage.files,
      patch: diffPath(project.root, run.id),
    });
  }
  return entries;
}

export interface PromoteOptions {
  /** The branch to create or fast-forward (default `salvage/<run>`); never one under `switchyard/`. */
  to?: string;
  /**
   * Instead of the salvaged commits themselves: their diff as one commit on a new branch off this revision (e.g.
   * `HEAD`).
   */
  onto?: string;
}

export interface Promotion {
  runId: string;
  branch: string;
  commit: string;
  /** `created`, `fast-forwarded`, `unchanged` (already there), or `applied` (one commit onto `onto`). */
  action: 'created' | 'fast-forwarded' | 'unchanged' | 'applied';
  files: number;
}

/**
 * Promotes a run's salvaged work to a branch of the user's: by default a
 * branch at the salvage commit (created, or fast-forwarded when it is behind);
 * with `onto`, a new branch off that revision holding the salvaged diff as
 * one commit, built in a temporary worktree. The user's working tree, index
 * and checked-out branch are never touched; a conflict leaves nothing behind.
 * The decision is recorded in the run's log.
 */
export async function promoteSalvage(
  project: SalvageProject,
  runId: string,
  options: PromoteOptions = {},
): Promise<Promotion> {
  const state = await project.store.read();
  const run = state.runs.find((r) => r.id === runId);
  if (!run)
    throw new SwitchyardError(
      'unknown-run',
      `unknown run "${runId}"${state.runs.length ? `; runs: ${state.runs.map((r) => r.id).join(', ')}` : ''}`,
    );
  if (!run.salvage) {
    const salvaged = state.runs.filter((r) => r.salvage).map((r) => r.id);
    throw new SwitchyardError(
      'invalid-input',
      `run ${runId} has no salvaged work (only failed or interrupted runs that left changes do)${salvaged.length ? `; runs with salvage: ${salvaged.join(', ')}` : ''}`,
    );
  }
  const root = project.root;
  const branch = options.to ?? `salvage/${runId}`;
  await checkBranchName(project.root, branch);
  const commit = run.salvage.commit;
  const exists = await gitOutput(root, ['cat-file', '-e', `${commit}^{commit}`]).then(
    () => true,
    () => false,
  );
  if (!exists) {
    throw new SwitchyardError(
      'git-failed',
      `the salvage commit ${commit.slice(0, 12)} of run ${runId} is gone from the repository; its diff is still in ${diffPath(project.root, runId)} (git apply it by hand)`,
    );
  }

  const promotion = options.onto
    ? await applyOnto(project.root, run, branch, options.onto, state.tasks.find((t) => t.id === run.taskId)?.spec.title)
    : await pointBranch(project.root, runId, branch, commit, run.salvage.files);
  const log = new RunEventLog(eventsPath(project.root, runId));
  log.append('decision', {
    message:
      promotion.action === 'unchanged'
        ? `salvage of run ${runId}: branch ${branch} already holds it (${commit.slice(0, 12)})`
        : `salvage of run ${runId} promoted by the operator: branch ${branch} ${promotion.action} at ` +
          `${promotion.commit.slice(0, 12)}${options.onto ? ` (its diff applied onto ${options.onto})` : ''}`,
  });
  await log.flush();
  return promotion;
}

async function pointBranch(
  root: string,
  runId: string,
  branch: string,
  commit: string,
  files: number,
): Promise<Promotion> {
  const current = await gitOutput(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(
    (s) => s.trim(),
    () => '',
  );
  if (current === commit) return { runId, branch, commit, action: 'unchanged', files };
  if (current) {
    // (`merge-base` prints the common ancestor; none, or an error, reads as not behind.)
    const behind = (await gitOutput(root, ['merge-base', current, commit]).catch(() => '')).trim() === current;
    if (!behind) {
      throw new SwitchyardError(
        'invalid-input',
        `branch ${branch} exists and has commits the salvage of run ${runId} does not (${current.slice(0, 12)}); choose another branch with --to`,
      );
    }
  }
  try {
    // `git branch -f` refuses a branch checked out in any worktree, so a working tree is never moved under the user.
    await gitOutput(root, ['branch', ...(current ? ['-f'] : []), branch, commit]);
  } catch (error) {
    throw new SwitchyardError(
      'git-failed',
      `could not point ${branch} at the salvage of run ${runId}: ${firstLine(gitSaid(error))}`,
      { cause: error },
    );
  }
  return { runId, branch, commit, action: current ? 'fast-forwarded' : 'created', files };
}

async function applyOnto(
  root: string,
  run: Run,
  branch: string,
  onto: string,
  title: string | undefined,
): Promise<Promotion> {
  const taken = await gitOutput(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(
    (s) => s.trim(),
    () => '',
  );
  if (taken)
    throw new SwitchyardError(
      'invalid-input',
      `branch ${branch} already exists; --onto makes a new branch, so choose another name with --to`,
    );
  const base = await gitOutput(root, ['rev-parse', '--verify', `${onto}^{commit}`]).then(
    (s) => s.trim(),
    () => {
      throw new SwitchyardError('invalid-input', `--onto ${onto} does not name a commit in this repository`);
    },
  );
  const commit = run.salvage!.commit;
  const scratch = await mkdtemp(join(tmpdir(), 'switchyard-promote-'));
  const tree = join(scratch, 'tree');
  const patchFile = join(scratch, 'salvage.patch');
  try {
    await writeFile(patchFile, await gitOutput(root, ['diff', '--binary', run.baseCommit, commit]));
    await gitOutput(root, ['worktree', 'add', '--detach', tree, base]);
    try {
      await gitOutput(tree, ['apply', '--3way', '--index', '--whitespace=nowarn', patchFile]);
    } catch (error) {
      const conflicted = (await gitOutput(tree, ['diff', '--name-only', '--diff-filter=U']).catch(() => ''))
        .trim()
        .split('\n')
        .filter(Boolean);
      const why = conflicted.length ? `conflicts in ${conflicted.join(', ')}` : firstLine(gitSaid(error));
      throw new SwitchyardError(
        'git-failed',
        `the salvage of run ${run.id} does not apply onto ${onto} (${base.slice(0, 12)}): ${why}; promote it without --onto and merge or rebase it yourself`,
        { cause: error },
      );
    }
    const staged = await gitOutput(tree, ['diff', '--cached', '--numstat']);
    const files = staged.split('\n').filter(Boolean).length;
    if (files === 0)
      throw new SwitchyardError(
        'invalid-input',
        `nothing to promote: ${onto} already contains the salvaged changes of run ${run.id}`,
      );
    const identity = (await gitOutput(tree, ['config', 'user.email']).then(
      (v) => v.trim() !== '',
      () => false,
    ))
      ? []
      : FALLBACK_IDENTITY;
    const message = `Salvaged work of run ${run.id}${title ? `: ${title}` : ''}\n\nFrom ${run.salvage!.branch} (${commit.slice(0, 12)}), promoted onto ${onto}.`;
    await gitOutput(tree, [...identity, 'commit', '--no-verify', '--quiet', '-m', message]);
    const head = (await gitOutput(tree, ['rev-parse', 'HEAD'])).trim();
    await gitOutput(root, ['branch', branch, head]);
    return { runId: run.id, branch, commit: head, action: 'applied', files };
  } finally {
    await gitOutput(root, ['worktree', 'remove', '--force', tree]).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
    await gitOutput(root, ['worktree', 'prune']).catch(() => undefined);
  }
}

async function checkBranchName(root: string, branch: string): Promise<void> {
  if (branch === 'switchyard' || branch.startsWith('switchyard/')) {
    throw new SwitchyardError(
      'invalid-input',
      `branch ${branch} is in Switchyard's own namespace (switchyard/…); promote to a branch of yours, e.g. --to salvage/<run>`,
    );
  }
  const ok = await gitOutput(root, ['check-ref-format', '--branch', branch]).then(
    () => true,
    () => false,
  );
  if (!ok) throw new SwitchyardError('invalid-input', `"${branch}" is not a valid branch name`);
}
