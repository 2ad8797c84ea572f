import * as vscode from 'vscode';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { contextValues } from './contextKeyValues';

export { CONTEXT_KEYS } from './contextKeyValues';

/** Keeps the context keys in step with the project snapshot (set only when a value changed). */
export class ContextKeys implements vscode.Disposable {
  private readonly values = new Map<string, string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly snapshot: ProjectSnapshot) {
    this.subscription = snapshot.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    for (const [key, value] of Object.entries(contextValues(this.snapshot.state, this.snapshot.error))) {
      const seen = JSON.stringify(value);
      if (this.values.get(key) === seen) continue;
      this.values.set(key, seen);
      void vscode.commands.executeCommand('setContext', key, value);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
