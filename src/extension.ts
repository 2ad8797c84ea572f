import { join } from 'node:path';
import * as vscode from 'vscode';
import type * as Runtime from './extensionRuntime';
import { ACTIVATION_MARKS } from './ui/activationMarks';
import { COMMANDS, QUEUE_PANEL_VIEW_TYPE } from './ui/commandIds';
import { StateFileStatus } from './ui/project/stateFileStatus';
import { RuntimeLoader } from './ui/runtimeLoader';
import type { SwitchyardExtension } from './ui/switchyardApi';
import { QueueStatusBar } from './ui/views/queueStatusBar';
import { REPORT_SCHEME } from './ui/views/reportDocument';
import { RUN_FILE_SCHEME } from './ui/views/runFileProvider';
import { TasksView } from './ui/views/tasksView';

performance.mark(ACTIVATION_MARKS.loaded);

/**
 * The extension's small entry: every command, the Tasks view, the status bar, the panel's serializer and the
 * document schemes are registered here, with handlers that load the rest of the extension (dist/extensionRuntime.js,
 * src/extensionRuntime.ts) on first use. The status bar counts the folder's state file until then.
 */
export function activate(context: vscode.ExtensionContext): SwitchyardExtension {
  performance.mark(ACTIVATION_MARKS.activateStart);
  const runtime = new RuntimeLoader(() => loadRuntimeBundle().startRuntime(context));
  const light = new StateFileStatus(vscode.workspace.workspaceFolders?.[0], () => runtime.loadSoon());
  const bar = new QueueStatusBar(light);
  const tasksView = new TasksView(runtime);
  context.subscriptions.push(
    runtime,
    light,
    bar,
    runtime.onDidLoad(({ status }) => {
      bar.use(status);
      light.dispose();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => runtime.loadSoon()),
    tasksView,
    vscode.window.registerWebviewPanelSerializer(QUEUE_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => runtime.get().panels.deserializeWebviewPanel(panel, state),
    }),
    vscode.workspace.registerTextDocumentContentProvider(RUN_FILE_SCHEME, {
      provideTextDocumentContent: (uri, token) => runtime.get().files.provideTextDocumentContent(uri, token),
    }),
    registerReportScheme(runtime),
    ...Object.values(COMMANDS).map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => runtime.get().run(id, args, tasksView.selection)),
    ),
  );
  performance.mark(ACTIVATION_MARKS.activateEnd);
  return { getAPI: (version) => runtime.get().api.getAPI(version) };
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}

/** The report scheme's documents change when a report is shown again: forward the runtime provider's events. */
function registerReportScheme(runtime: RuntimeLoader): vscode.Disposable {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const forwarding = runtime.onDidLoad(({ reports }) => {
    if (reports.onDidChange) subscriptions.push(reports.onDidChange((uri) => changed.fire(uri)));
  });
  const subscriptions: vscode.Disposable[] = [changed, forwarding];
  subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri, token) => runtime.get().reports.provideTextDocumentContent(uri, token),
    }),
  );
  return new vscode.Disposable(() => {
    for (const s of subscriptions) s.dispose();
  });
}

/** The heavy bundle beside this one (scripts/build.mjs builds both); loaded with require, so on first need only. */
function loadRuntimeBundle(): typeof Runtime {
  return require(join(__dirname, 'extensionRuntime.js')) as typeof Runtime;
}
