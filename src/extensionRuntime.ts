import type * as vscode from 'vscode';
import { registryWithBuiltins } from './lanes/builtinLanes';
import { commandTable } from './ui/commands/commandTable';
import { guardedHandler } from './ui/commands/registerCommands';
import { withSelectedRow } from './ui/commands/treeRowArgs';
import { createSwitchyardApi } from './ui/createSwitchyardApi';
import { QueuePanelController } from './ui/panel/queuePanelController';
import { ProjectHost } from './ui/project/projectHost';
import { extensionHookCommand } from './ui/project/extensionHookCommand';
import { ProjectSnapshot } from './ui/project/projectSnapshot';
import { snapshotStatusSource } from './ui/project/snapshotStatusSource';
import { SecretStorageSource } from './ui/secrets/secretStorageSource';
import type { ExtensionRuntime } from './ui/runtimeLoader';
import { FinishedElsewhereAnnouncer } from './ui/progress/announceFinishedElsewhere';
import { PullRequestAnnouncer } from './ui/progress/announcePullRequests';
import { TaskDocuments } from './ui/prompts/taskDocuments';
import { ContextKeys } from './ui/views/contextKeys';
import { warnUnknownLanes } from './ui/config/warnUnknownLanes';
import { RunFileProvider } from './ui/views/runFileProvider';
import { RunOutputChannels } from './ui/views/runOutputChannels';
import { reportProvider } from './ui/views/reportDocument';
import { TasksTreeProvider } from './ui/views/tasksTreeProvider';
import { ArchivedTasks } from './ui/views/archivedTasks';
import { TaskFilterState } from './ui/views/taskFilterState';
import { LaneExtensions } from './ui/lanes/laneExtensions';
import { showMessage } from './ui/views/showMessage';

/**
 * The heavy part of the extension, loaded on first need (the first command, the tree shown, a revived panel, the
 * API asked for): the lanes, the project host and its snapshot, the panel and every command handler.
 */
export function startRuntime(context: vscode.ExtensionContext): ExtensionRuntime {
  const registry = registryWithBuiltins();
  // Lane extensions (package.json `contributes["switchyard.lanes"]`) are activated before their lanes are needed.
  const laneExtensions = new LaneExtensions(context.extension.id, (message) => void showMessage('warning', message));
  const lanesReady = (): Promise<void> => laneExtensions.activate();
  const secrets = new SecretStorageSource(context.secrets);
  // Runs started here get the pre-push guard the extension ships (the host is not the CLI's dist/cli.js).
  const host = new ProjectHost(registry, secrets, lanesReady, extensionHookCommand(context.extensionPath));
  const snapshot = new ProjectSnapshot(host);
  const panels = new QueuePanelController(context.extensionUri, snapshot, false);
  const archived = new ArchivedTasks(context.workspaceState);
  const filter = new TaskFilterState(context.workspaceState);
  const tree = new TasksTreeProvider(snapshot, archived, filter);
  const shutdown = new AbortController();
  const runOutput = new RunOutputChannels(host, snapshot, archived);
  const finishedElsewhere = new FinishedElsewhereAnnouncer(snapshot, host);
  const taskDocuments = new TaskDocuments();
  const deps = {
    host,
    snapshot,
    panels,
    secrets,
    shutdown: shutdown.signal,
    runOutput,
    taskDocuments,
    archived,
    filter,
  };
  const handlers = new Map(commandTable(deps).map((e) => [e.id as string, guardedHandler(e)]));
  const disposables: vscode.Disposable[] = [
    host,
    snapshot,
    panels,
    archived,
    filter,
    tree,
    runOutput,
    taskDocuments,
    new PullRequestAnnouncer(snapshot, host),
    finishedElsewhere,
    new ContextKeys(snapshot),
    warnUnknownLanes(registry, lanesReady),
  ];
  return {
    async run(id, args, selection) {
      const handler = handlers.get(id);
      if (!handler) throw new Error(`Switchyard has no handler for the command ${id}`);
      // Every lane a command may list, route to or run is registered first.
      await lanesReady();
      return handler(...withSelectedRow(args, () => tree.currentRows(selection)));
    },
    tree,
    status: snapshotStatusSource(snapshot),
    finishedElsewhere,
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
