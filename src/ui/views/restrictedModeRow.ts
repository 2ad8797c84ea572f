import * as vscode from 'vscode';
import { escapeMarkdown } from '../../core/text/escapeMarkdown';

/** The row at the top of the Tasks tree in Restricted Mode. */
export interface RestrictedModeNode {
  readonly kind: 'restricted-mode';
}

export function isRestrictedModeNode(node: unknown): node is RestrictedModeNode {
  return (node as { kind?: unknown } | undefined)?.kind === 'restricted-mode';
}

/** The row, when the workspace is not trusted (Restricted Mode); none otherwise. */
export function restrictedModeNodes(): RestrictedModeNode[] {
  return vscode.workspace.isTrusted ? [] : [{ kind: 'restricted-mode' }];
}

/** What Restricted Mode turns off, and the way out: Manage Workspace Trust. */
export function restrictedModeTreeItem(): vscode.TreeItem {
  const item = new vscode.TreeItem('Restricted Mode: settings from this repository that are not plain are ignored');
  item.iconPath = new vscode.ThemeIcon('shield');
  item.description = 'Manage Workspace Trust…';
  // Constant text, escaped all the same (test/unit/text/uiMessageSources.test.ts: every MarkdownString goes through
  // escapeMarkdown).
  item.tooltip = new vscode.MarkdownString(
    escapeMarkdown(
      'This workspace is not trusted. Of the settings it carries (.switchyard/config.json, a state file git tracks, workspace settings) Switchyard ignores the ones that would run a command (lane command lines, agent arguments, setup, secret commands, lane modules), send a credential or your environment somewhere (base and API URLs, remotes, passEnv), bring files into a worktree (worktree.copy/link) or weaken a price or cost cap; tasks that came in a tracked state file do not run. Click to manage workspace trust.',
    ),
  );
  item.command = { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' };
  item.contextValue = 'restrictedMode';
  return item;
}
