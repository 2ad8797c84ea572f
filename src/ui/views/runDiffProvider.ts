import * as vscode from 'vscode';
import type { ProjectHost } from '../project/projectHost';

export const RUN_DIFF_SCHEME = 'switchyard-diff';

/** A run's diff as a read-only document: `switchyard-diff:/t1.2.diff`. */
export function runDiffUri(runId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_DIFF_SCHEME, path: `/${runId}.diff` });
}

/** Serves run diffs from the project, so they open read-only and never ask to be saved. */
export class RunDiffProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly host: ProjectHost) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const runId = uri.path.replace(/^\//, '').replace(/\.diff$/, '');
    return (await this.host.get()).diff(runId);
  }
}
