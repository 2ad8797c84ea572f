import type * as vscode from 'vscode';
import { registryWithBuiltins } from './lanes/builtinLanes';
import { commandTable } from './ui/commands/commandTable';
import { guardedHandler } from './ui/commands/registerCommands';
import { createSwitchyardApi } from './ui/createSwitchyardApi';
import { QueuePanelController } from './ui/panel/queuePanelController';
import { ProjectHost } from './ui/project/projectHost';
import { ProjectSnapshot } from './ui/project/projectSnapshot';
import { snapshotStatusSource } from './ui/project/snapshotStatusSource';
import { SecretStorageSource } from './ui/secrets/secretStorageSource';
import type { ExtensionRuntime } from './ui/runtimeLoader';
import { PullRequestAnnouncer } from './ui/progress/announcePullRequests';
import { TaskDocuments } from './ui/prompts/taskDocuments';
import { ContextKeys } from './ui/views/contextKeys';
import { warnUnknownLanes } from './ui/config/warnUnknownLanes';
import { RunFileProvider } from './ui/views/runFileProvider';
import { RunOutputChannels } from './ui/views/runOutputChannels';
import { reportProvider } from './ui/views/reportDocument';
import { TasksTreeProvider } from './ui/views/tasksTreeProvider';
import { ArchivedTasks } from './ui/views/archivedTasks';

/**
 * The heavy part of the extension, loaded on first need (the first command, the tree shown, a revived panel, the
 * API asked for): the lanes, the project host and its snapshot, the panel and every command handler.
 */
export function startRuntime(context: vscode.ExtensionContext): ExtensionRuntime {
  const registry = registryWithBuiltins();
  const secrets = new SecretStorageSource(context.secrets);
  const host = new ProjectHost(registry, secrets);
  const snapshot = new ProjectSnapshot(host);
  const panels = new QueuePanelController(context.extensionUri, snapshot, false);
  const archived = new ArchivedTasks(context.workspaceState);
  const tree = new TasksTreeProvider(snapshot, archived);
  const shutdown = new AbortController();
  const runOutput = new RunOutputChannels(host);
  const taskDocuments = new TaskDocuments();
  const deps = { host, snapshot, panels, secrets, shutdown: shutdown.signal, runOutput, taskDocuments, archived };
  const handlers = new Map(commandTable(deps).map((e) => [e.id as string, guardedHandler(e)]));
  const disposables: vscode.Disposable[] = [
    host,
    snapshot,
    panels,
    archived,
    tree,
    runOutput,
    taskDocuments,
    new PullRequestAnnouncer(snapshot),
    new ContextKeys(snapshot),
    warnUnknownLanes(registry),
  ];
  return {
    run(id, args) {
      const handler = handlers.get(id);
      if (!handler) return Promise.reject(new Error(`Switchyard has no handler for the command ${id}`));
      return handler(...args);
    },
    tree,
    status: snapshotStatusSource(snapshot),
    panels,
    files: new RunFileProvider(host),
    reports: reportProvider,
    api: createSwitchyardApi(registry),
    dispose() {
      shutdown.abort();
      for (const d of disposables) d.dispose();
    },
  };
}
