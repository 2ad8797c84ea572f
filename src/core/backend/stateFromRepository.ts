import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { git } from '../git/gitExec';
import { linkedGitDir } from '../git/gitFiles';
import { type FileStamp, fileStamp } from '../store/fileStamp';
import { STATE_DIR } from '../store/stateDir';

/** What a repository may commit under `.switchyard/`: the team's config (and the files that go with it). */
const COMMITTABLE = new Set([`${STATE_DIR}/config.json`, `${STATE_DIR}/.gitignore`, `${STATE_DIR}/merge-policy.json`]);

/**
 * Which of Switchyard's own files under `.switchyard/` (the state, its history, run journals…) git tracks: a clone
 * brings only tracked files, so a tracked state file is the repository's, not this machine's (a repository can
 * force-add one, `git add -f`). Asked of git again only when the index changed.
 */
export class StateFromRepository {
  private last: { stamp: FileStamp; tracked: string[] } | undefined;
  /** The question being asked of git, and the index it is about: callers that come meanwhile share its answer. */
  private asking: { key: string; tracked: Promise<string[]> } | undefined;
  private indexPath: Promise<string | undefined> | undefined;

  constructor(private readonly root: string) {}

  /** The tracked paths (relative to the root); none: the state is this machine's own. */
  async tracked(): Promise<string[]> {
    this.indexPath ??= indexOf(this.root);
    const index = await this.indexPath;
    if (!index) return [];
    const stamp = fileStamp(index);
    const last = this.last;
    if (last?.stamp.trusted && last.stamp.key === stamp.key) return last.tracked;
    if (stamp.key === 'missing') {
      this.last = { stamp, tracked: [] };
      return [];
    }
    if (this.asking?.key === stamp.key) return this.asking.tracked;
    const asking = { key: stamp.key, tracked: this.list(stamp) };
    this.asking = asking;
    try {
      return await asking.tracked;
    } finally {
      if (this.asking === asking) this.asking = undefined;
    }
  }

  private async list(stamp: FileStamp): Promise<string[]> {
    const listed = await git(this.root, ['ls-files', '-z', '--', STATE_DIR]);
    const tracked = listed.stdout.split('\0').filter((path) => path && !COMMITTABLE.has(path));
    this.last = { stamp, tracked };
    return tracked;
  }
}

/** The index file of the checkout at `root`: `.git/index`, or a linked worktree's own (asked of git otherwise). */
function indexOf(root: string): Promise<string | undefined> {
  const dotGit = join(root, '.git');
  if (statSync(dotGit, { throwIfNoEntry: false })?.isDirectory()) return Promise.resolve(join(dotGit, 'index'));
  const linked = linkedGitDir(root);
  if (linked) return Promise.resolve(join(resolve(root, linked), 'index'));
  return git(root, ['rev-parse', '--path-format=absolute', '--git-path', 'index']).then(
    (r) => r.stdout.trim() || undefined,
    () => undefined,
  );
}
