/**
 * The guards at a repository's push boundary, for the CLI's `guard` and `guards` commands and the pre-push hook: they
 * work on any repository (a run's worktree, a clone), with or without a project opened on it. Verdicts are recorded
 * in the main worktree's `.switchyard/guards.jsonl`.
 */
import { mainWorktreeRoot, worktreeTop } from '../git/gitExec';
import { branchPush } from '../guards/branchPush';
import { conflictMarkerEvidence } from '../guards/conflictMarkers';
import { scanTreeForConflictMarkers } from '../guards/fullTreeScan';
import { type GuardEvent, readGuardEvents } from '../guards/guardLog';
import { type PrePushReport, runPrePushGuard } from '../guards/prePushGuard';
import { type GuardResult, runGuard } from '../guards/runGuard';

export { defaultHookCommand, installPrePushHook } from '../guards/installPrePushHook';
export { runPrePushGuard, type PrePushReport } from '../guards/prePushGuard';
export { formatEvidence, type GuardResult } from '../guards/runGuard';

/** The recorded guard verdicts of the repository that contains `dir`, newest last (`limit`: only the newest). */
export async function guardEvents(dir: string, options: { limit?: number } = {}): Promise<GuardEvent[]> {
  return readGuardEvents(await mainWorktreeRoot(dir), options);
}

/** Checks the branch checked out in the worktree that contains `dir` as a push to its upstream would be checked. */
export async function scanBranchPush(dir: string): Promise<PrePushReport> {
  const top = await worktreeTop(dir);
  const { remote, update } = await branchPush(top);
  return runPrePushGuard({ cwd: top, remote, stdin: [update], root: await mainWorktreeRoot(top) });
}

/** Scans the whole committed tree (HEAD) of the worktree that contains `dir` for conflict markers; recorded. */
export async function scanCommittedTree(dir: string): Promise<GuardResult> {
  const top = await worktreeTop(dir);
  const root = await mainWorktreeRoot(top);
  return runGuard('conflict-markers', { root, subject: 'scan --full HEAD' }, async () => {
    const evidence = conflictMarkerEvidence(await scanTreeForConflictMarkers(top, 'HEAD'));
    return { verdict: evidence.length ? 'block' : 'pass', rule: 'conflict-marker', evidence };
  });
}
