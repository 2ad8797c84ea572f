import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import type * as vscode from 'vscode';

/**
 * The file `uri` as a path relative to the repository root, with `/`
 * separators (what a task's `files` holds). Symlinks are resolved on both
 * sides, since git reports the root's real path. A folder, or a file outside
 * the repository, is an error naming it.
 */
export async function repoRelativeFile(root: string, uri: vscode.Uri): Promise<string> {
  if (uri.scheme === 'untitled')
    throw new Error('Send to Lane needs a saved file in the repository; save the document first');
  const file = uri.fsPath;
  const info = await stat(file).catch(() => undefined);
  if (!info) throw new Error(`${file} does not exist`);
  if (info.isDirectory()) throw new Error(`${file} is a folder; Send to Lane works on a file`);
  const [realRoot, realFile] = await Promise.all([realpath(root).catch(() => root), realpath(file).catch(() => file)]);
  const rel = relative(realRoot, realFile);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${file} is not inside the repository ${root}`);
  return rel.split(sep).join('/');
}
