import * as vscode from 'vscode';
import { registryWithBuiltins } from './lanes/builtinLanes';
import { commandTable } from './ui/commands/commandTable';
import { registerCommands } from './ui/commands/registerCommands';
import { createSwitchyardApi } from './ui/createSwitchyardApi';
import { QueuePanelController } from './ui/panel/queuePanelController';
import { ProjectHost } from './ui/project/projectHost';
import { ProjectSnapshot } from './ui/project/projectSnapshot';
import { SecretStorageSource } from './ui/secrets/secretStorageSource';
import { PullRequestAnnouncer } from './ui/progress/announcePullRequests';
import type { SwitchyardExtension } from './ui/switchyardApi';
import { QueueStatusBar } from './ui/views/queueStatusBar';
import { RUN_FILE_SCHEME, RunFileProvider } from './ui/views/runFileProvider';
import { REPORT_SCHEME, reportProvider } from './ui/views/reportDocument';
import { TasksView } from './ui/views/tasksView';
import { RunOutputChannels } from './ui/views/runOutputChannels';
import { ContextKeys } from './ui/views/contextKeys';
import { TaskDocuments } from './ui/prompts/taskDocuments';

/** Wiring only: the project host, its views, the commands, and the public API. */
export function activate(context: vscode.ExtensionContext): SwitchyardExtension {
  const registry = registryWithBuiltins();
  const secrets = new SecretStorageSource(context.secrets);
  const host = new ProjectHost(registry, secrets);
  const snapshot = new ProjectSnapshot(host);
  const panels = new QueuePanelController(context.extensionUri, snapshot);
  const shutdown = new AbortController();
  const runOutput = new RunOutputChannels(host);
  const taskDocuments = new TaskDocuments();
  context.subscriptions.push(
    new vscode.Disposable(() => shutdown.abort()),
    host,
    snapshot,
    panels,
    runOutput,
    taskDocuments,
    new TasksView(snapshot),
    new QueueStatusBar(snapshot),
    new PullRequestAnnouncer(snapshot),
    new ContextKeys(snapshot),
    vscode.workspace.registerTextDocumentContentProvider(RUN_FILE_SCHEME, new RunFileProvider(host)),
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reportProvider),
    ...registerCommands(
      commandTable({ host, snapshot, panels, secrets, shutdown: shutdown.signal, runOutput, taskDocuments }),
    ),
  );
  return createSwitchyardApi(registry);
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
