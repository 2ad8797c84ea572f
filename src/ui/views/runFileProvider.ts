import * as vscode from 'vscode';
import type { ProjectHost } from '../project/projectHost';

export const RUN_FILE_SCHEME = 'switchyard-file';

/**
 * A file as it is at a commit, read-only: `switchyard-file:/src/a.ts?<commit>`. The path keeps the file's name, so the
 * diff editor picks its language; a file the commit does not have is empty (the side of an added or deleted file).
 */
export function runFileUri(commit: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_FILE_SCHEME, path: `/${path}`, query: commit });
}

export class RunFileProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly host: ProjectHost) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const project = await this.host.get();
    return (await project.runs.fileAt(uri.query, uri.path.replace(/^\//, ''))) ?? '';
  }
}
