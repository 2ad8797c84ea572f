import * as vscode from 'vscode';
import { TASK_DOCUMENT_HINT } from '../../core/model/taskDocument';

/** The context key that is true while the active editor is a task document (its Submit Task button and key). */
export const TASK_DOCUMENT_CONTEXT = 'switchyard.taskDocument';

/**
 * The task documents New Task opened: untitled Markdown editors in which a task is written, title on the first
 * line and as many lines of instruction as needed, then submitted with Submit Task. Keeps the context key in step
 * with the active editor, and forgets a document once it is closed.
 */
export class TaskDocuments implements vscode.Disposable {
  /** Each open task document, with the file of the editor New Task was started from (its target file by default). */
  private readonly open = new Map<string, vscode.Uri | undefined>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.open.delete(d.uri.toString());
        this.updateContext();
      }),
    ];
  }

  /**
   * Opens a new task document in the editor, the cursor on its (empty) title line, the hint below; `origin` is the
   * file the user was in (Submit Task offers it as the target file).
   */
  async create(origin?: vscode.Uri): Promise<vscode.TextDocument> {
    const content = `\n\n${TASK_DOCUMENT_HINT}\n`;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    this.open.set(document.uri.toString(), origin);
    await vscode.window.showTextDocument(document, { preview: false, selection: new vscode.Range(0, 0, 0, 0) });
    this.updateContext();
    return document;
  }

  has(document: vscode.TextDocument): boolean {
    return this.open.has(document.uri.toString());
  }

  /** The file the user was in when New Task opened `document`. */
  origin(document: vscode.TextDocument): vscode.Uri | undefined {
    return this.open.get(document.uri.toString());
  }

  forget(document: vscode.TextDocument): void {
    this.open.delete(document.uri.toString());
    this.updateContext();
  }

  private updateContext(): void {
    const active = vscode.window.activeTextEditor?.document;
    void vscode.commands.executeCommand('setContext', TASK_DOCUMENT_CONTEXT, active ? this.has(active) : false);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
