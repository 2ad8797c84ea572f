import * as vscode from 'vscode';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { contextValues } from './contextKeyValues';

export { CONTEXT_KEYS } from './contextKeyValues';

/** Keeps the context keys in step with the project snapshot (set only when a value changed). */
export class ContextKeys implements vscode.Disposable {
  private readonly values = new Map<string, boolean>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly snapshot: ProjectSnapshot) {
    this.subscription = snapshot.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    for (const [key, value] of Object.entries(contextValues(this.snapshot.state, this.snapshot.error))) {
      if (this.values.get(key) === value) continue;
      this.values.set(key, value);
      void vscode.commands.executeCommand('setContext', key, value);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
