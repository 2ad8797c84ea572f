import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { describeZodError } from '../model/zodIssues';
import { SHA_PATTERN, git, isZeroSha } from '../git/gitExec';

const Sha = z.string().regex(SHA_PATTERN, 'not a full object id');

/** One line of git's pre-push stdin: `<local ref> <local sha> <remote ref> <remote sha>`. */
export const PushUpdate = z
  .object({ localRef: z.string().min(1), localSha: Sha, remoteRef: z.string().min(1), remoteSha: Sha })
  .strict();
export type PushUpdate = z.infer<typeof PushUpdate>;

/** Parses the pre-push protocol; blank lines are ignored, a malformed line is an error naming it. */
export function parsePrePushInput(text: string): PushUpdate[] {
  const updates: PushUpdate[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const [localRef, localSha, remoteRef, remoteSha, extra] = line.split(/\s+/);
    const parsed = PushUpdate.safeParse({ localRef, localSha, remoteRef, remoteSha });
    if (!parsed.success || extra !== undefined) {
      const why = parsed.success ? 'more than 4 fields' : describeZodError(parsed.error);
      throw new SwitchyardError(
        'invalid-input',
        `pre-push input line ${i + 1} is not "<local ref> <local sha> <remote ref> <remote sha>": ${why}`,
      );
    }
    updates.push(parsed.data);
  });
  return updates;
}

export interface PushCommit {
  sha: string;
  parents: string[];
}

export interface PushRange {
  update: PushUpdate;
  /** The commits this update adds to the remote (not reachable from its remote-tracking refs or its current tip). */
  commits: PushCommit[];
  /** The commit to diff against: the remote's current tip when we have it, else where the new commits fork off. */
  base?: string;
  /** Whether the remote's current tip is a commit we have locally. */
  remoteKnown: boolean;
}

const RevListLine = z.string().regex(/^-?[0-9a-f]{40,64}(?: [0-9a-f]{40,64})*$/, 'not a rev-list line');

/**
 * What one ref update adds: `git rev-list <local> --not --remotes=<remote>`
 * (and the remote's old tip, when we have it). A deletion adds nothing.
 * With no base at all (the first push to an empty remote) `base` is
 * undefined and the caller scans the whole tree.
 */
export async function computePushRange(cwd: string, remote: string, update: PushUpdate): Promise<PushRange> {
  if (isZeroSha(update.localSha)) return { update, commits: [], remoteKnown: false };
  const remoteKnown =
    !isZeroSha(update.remoteSha) &&
    (await git(cwd, ['cat-file', '-e', `${update.remoteSha}^{commit}`], [0, 1, 128])).code === 0;
  const args = ['rev-list', '--parents', '--boundary', update.localSha, '--not', `--remotes=${remote}`];
  if (remoteKnown) args.push(update.remoteSha);
  const out = await git(cwd, args);
  const commits: PushCommit[] = [];
  const boundaries: string[] = [];
  for (const line of out.stdout.split('\n')) {
    if (!line) continue;
    const checked = RevListLine.safeParse(line);
    if (!checked.success)
      throw new SwitchyardError('git-failed', `unexpected git rev-list output: ${JSON.stringify(line.slice(0, 60))}`);
    if (line.startsWith('-')) boundaries.push(line.slice(1).split(' ')[0]!);
    else {
      const [sha, ...parents] = line.split(' ');
      commits.push({ sha: sha!, parents });
    }
  }
  const base = remoteKnown ? update.remoteSha : boundaries[0];
  return { update, commits, base, remoteKnown };
}

/** A short label for an update: `main -> main`, or `delete old-branch`. */
export function describeUpdate(update: PushUpdate): string {
  const short = (ref: string): string => ref.replace(/^refs\/heads\//, '');
  return isZeroSha(update.localSha)
    ? `delete ${short(update.remoteRef)}`
    : `${short(update.localRef)} -> ${short(update.remoteRef)}`;
}
