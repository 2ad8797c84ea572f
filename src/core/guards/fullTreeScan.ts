import { SwitchyardError } from '../errors';
import { CONFLICT_MARKER_ERE, conflictMarkerKind, type ConflictMarkerFinding } from './conflictMarkers';
import { gitLines } from '../git/gitExec';

/**
 * Conflict markers anywhere in the tree of `commit` (what is committed, not
 * the working tree), found by one `git grep` over the object database. Used
 * when a push carries the whole history (nothing on the remote to compare
 * with) and by `switchyard guard scan --full`. Binary files are skipped.
 */
export async function scanTreeForConflictMarkers(cwd: string, commit: string): Promise<ConflictMarkerFinding[]> {
  const found: ConflictMarkerFinding[] = [];
  const prefix = `${commit}:`;
  await gitLines(
    cwd,
    [
      '-c',
      'grep.fallbackToNoIndex=false',
      'grep',
      '-z',
      '-n',
      '-I',
      '--full-name',
      '--no-color',
      '-E',
      CONFLICT_MARKER_ERE,
      commit,
      '--',
    ],
    (raw) => {
      if (!raw) return;
      // -z output: "<commit>:<path>\0<line>\0<text>"
      const first = raw.indexOf('\0');
      const second = raw.indexOf('\0', first + 1);
      if (!raw.startsWith(prefix) || first < 0 || second < 0) {
        throw new SwitchyardError('git-failed', `unexpected git grep output: ${JSON.stringify(raw.slice(0, 60))}`);
      }
      const text = raw.slice(second + 1);
      const kind = conflictMarkerKind(text);
      if (kind)
        found.push({
          file: raw.slice(prefix.length, first),
          line: Number(raw.slice(first + 1, second)),
          kind,
          text: text.trimEnd(),
        });
    },
    [0, 1], // 1: no match
  );
  return found;
}
