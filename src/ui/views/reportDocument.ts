import * as vscode from 'vscode';
import { plainText } from '../../core/text/plainText';

export const REPORT_SCHEME = 'switchyard-report';
const reports = new Map<string, string>();
const changed = new vscode.EventEmitter<vscode.Uri>();

/** Serves report texts as read-only documents (`switchyard-report:/<name>.txt`). */
export const reportProvider: vscode.TextDocumentContentProvider = {
  onDidChange: changed.event,
  provideTextDocumentContent: (uri) => reports.get(uri.path) ?? '',
};

/**
 * Opens (or refreshes) a read-only report document; its text is made plain (titles and reasons in it are untrusted).
 */
export async function showReport(name: string, text: string): Promise<void> {
  const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${name}.txt` });
  reports.set(uri.path, plainText(text));
  changed.fire(uri);
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
}
