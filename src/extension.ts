import * as vscode from 'vscode';
import { registryWithBuiltins } from './lanes/builtinLanes';
import { commandTable } from './ui/commands/commandTable';
import { registerCommands } from './ui/commands/registerCommands';
import { createSwitchyardApi } from './ui/createSwitchyardApi';
import { QueuePanelController } from './ui/panel/queuePanelController';
import { ProjectHost } from './ui/project/projectHost';
import { ProjectSnapshot } from './ui/project/projectSnapshot';
import { SecretStorageSource } from './ui/secrets/secretStorageSource';
import type { SwitchyardExtension } from './ui/switchyardApi';
import { QueueStatusBar } from './ui/views/queueStatusBar';
import { RUN_DIFF_SCHEME, RunDiffProvider } from './ui/views/runDiffProvider';
import { REPORT_SCHEME, reportProvider } from './ui/views/reportDocument';
import { TasksView } from './ui/views/tasksView';
import { warnUnknownLanes } from './ui/config/warnUnknownLanes';

/** Wiring only: the project host, its views, the commands, and the public API. */
export function activate(context: vscode.ExtensionContext): SwitchyardExtension {
  const registry = registryWithBuiltins();
  const secrets = new SecretStorageSource(context.secrets);
  const host = new ProjectHost(registry, secrets);
  const snapshot = new ProjectSnapshot(host);
  const panels = new QueuePanelController(context.extensionUri, snapshot);
  const shutdown = new AbortController();
  context.subscriptions.push(
    new vscode.Disposable(() => shutdown.abort()),
    host,
    snapshot,
    panels,
    new TasksView(snapshot),
    new QueueStatusBar(snapshot),
    vscode.workspace.registerTextDocumentContentProvider(RUN_DIFF_SCHEME, new RunDiffProvider(host)),
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reportProvider),
    ...registerCommands(commandTable({ host, snapshot, panels, secrets, shutdown: shutdown.signal })),
    warnUnknownLanes(registry),
  );
  return createSwitchyardApi(registry);
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
