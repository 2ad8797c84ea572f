import { git } from '../git/gitExec';
import type { GuardEvidence } from './guardLog';
import { allowedPatterns, refPatternMatches, type MergePolicyRule } from './mergePolicy';
import type { PushRange } from './pushRange';

/**
 * Stage 2 of the pre-push guard: every new merge commit in a pushed range
 * must have each parent either on the branch's own line of new commits
 * (its first-parent chain) or reachable from a ref the policy allows
 * (`git merge-base --is-ancestor`). Returns one piece of evidence per
 * refused parent, naming the merge, the parent and the branch it came from.
 */
export async function checkMergeSources(
  cwd: string,
  remote: string,
  range: PushRange,
  rule: MergePolicyRule,
): Promise<GuardEvidence[]> {
  const merges = range.commits.filter((c) => c.parents.length > 1);
  if (!merges.length) return [];
  const byId = new Map(range.commits.map((c) => [c.sha, c]));
  const ownLine = new Set<string>();
  for (let at = byId.get(range.update.localSha); at && !ownLine.has(at.sha); at = byId.get(at.parents[0] ?? ''))
    ownLine.add(at.sha);

  const patterns = allowedPatterns(rule);
  const tips = await allowedTips(cwd, remote, range, patterns);
  const evidence: GuardEvidence[] = [];
  for (const merge of merges) {
    for (const parent of merge.parents) {
      if (ownLine.has(parent)) continue;
      if (await reachableFromAny(cwd, parent, tips)) continue;
      const source = await sourceOf(cwd, parent, range.update.localRef);
      evidence.push({
        message:
          `merge ${merge.sha.slice(0, 12)} brings in ${parent.slice(0, 12)} from ${source}, which is not reachable from a ref the policy allows ` +
          `for ${range.update.remoteRef.replace(/^refs\/heads\//, '')} (${patterns.join(', ')})`,
      });
    }
  }
  return evidence;
}

/**
 * Allowed refs (remote-tracking refs of `remote` and local branches) as commit ids, plus what the remote already has.
 */
async function allowedTips(cwd: string, remote: string, range: PushRange, patterns: string[]): Promise<string[]> {
  const out = await git(cwd, [
    'for-each-ref',
    '--format=%(objectname) %(refname)',
    `refs/remotes/${remote}/`,
    'refs/heads/',
  ]);
  const tips: string[] = [];
  for (const line of out.stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const [sha, ref] = [line.slice(0, space), line.slice(space + 1)];
    // The branch being pushed contains the merge itself, so it can vouch for nothing.
    if (ref === range.update.localRef) continue;
    if (patterns.some((p) => refPatternMatches(p, ref))) tips.push(sha);
  }
  if (range.remoteKnown) tips.push(range.update.remoteSha);
  return [...new Set(tips)];
}

async function reachableFromAny(cwd: string, commit: string, tips: string[]): Promise<boolean> {
  for (const tip of tips) {
    const { code } = await git(cwd, ['merge-base', '--is-ancestor', commit, tip], [0, 1]);
    if (code === 0) return true;
  }
  return false;
}

/** Which branches contain the commit (other than the one being pushed), to name the merge's source. */
async function sourceOf(cwd: string, commit: string, pushedRef: string): Promise<string> {
  const out = await git(cwd, [
    'for-each-ref',
    '--contains',
    commit,
    '--format=%(refname)',
    'refs/remotes/',
    'refs/heads/',
  ]);
  const all = out.stdout.split('\n').filter((r) => r && r !== pushedRef && !r.endsWith('/HEAD'));
  // Remote-tracking refs first: they say where the commit came from.
  const refs = [
    ...all.filter((r) => r.startsWith('refs/remotes/')),
    ...all.filter((r) => r.startsWith('refs/heads/')),
  ].map((r) => r.replace(/^refs\/(?:heads|remotes)\//, ''));
  if (!refs.length) return 'a commit on no other branch';
  return refs.length > 3 ? `${refs.slice(0, 3).join(', ')} (+${refs.length - 3} more)` : refs.join(', ');
}
