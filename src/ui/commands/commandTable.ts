import { COMMANDS } from '../commandIds';
import { cancelTask } from './cancelTask';
import { cleanWorktrees } from './cleanWorktrees';
import type { CommandDeps } from './commandDeps';
import { newTask } from './newTask';
import { openProjectConfig } from './openProjectConfig';
import { openQueuePanel } from './openQueuePanel';
import { openPullRequest } from './openPullRequest';
import { setGitHubToken } from './setGitHubToken';
import { promoteSalvage } from './promoteSalvage';
import { refresh } from './refresh';
import type { CommandEntry } from './registerCommands';
import { retryTask } from './retryTask';
import { runQueue } from './runQueue';
import { runTask } from './runTask';
import { sendToLane } from './sendToLane';
import { setApiKey } from './setApiKey';
import { setDefaultLane } from './setDefaultLane';
import { setPostgresConnection } from './setPostgresConnection';
import { setTaskLane } from './setTaskLane';
import { showRunDiff } from './showRunDiff';
import { tasksTreeRows } from './tasksTreeRows';
import { checkOutBranch } from './checkOutBranch';
import { mergeIntoCurrentBranch } from './mergeIntoCurrentBranch';
import { openChanges } from './openChanges';
import { showRunLog } from './showRunLog';
import { submitTaskDocument } from './submitTaskDocument';
import { showMoreFinished } from './showMoreFinished';
import { rollbackCanaryCommand, showCanaryReportCommand, startCanaryCommand } from './canaryCommands';

/** Every command the extension contributes, with its handler. */
export function commandTable(deps: CommandDeps): CommandEntry[] {
  return [
    { id: COMMANDS.newTask, handler: (spec) => newTask(deps, spec) },
    { id: COMMANDS.runQueue, handler: (options) => runQueue(deps, options) },
    { id: COMMANDS.runTask, handler: (task) => runTask(deps, task) },
    { id: COMMANDS.cancelTask, handler: (task) => cancelTask(deps, task) },
    { id: COMMANDS.retryTask, handler: (task) => retryTask(deps, task) },
    { id: COMMANDS.setDefaultLane, handler: (lane) => setDefaultLane(deps, lane) },
    { id: COMMANDS.setTaskLane, handler: (task, lane) => setTaskLane(deps, task, lane) },
    { id: COMMANDS.showRunDiff, handler: (run) => showRunDiff(deps, run) },
    { id: COMMANDS.cleanWorktrees, handler: () => cleanWorktrees(deps) },
    { id: COMMANDS.openQueuePanel, handler: () => openQueuePanel(deps) },
    { id: COMMANDS.sendToLane, handler: (uri, options) => sendToLane(deps, uri, options) },
    { id: COMMANDS.refresh, handler: () => refresh(deps) },
    { id: COMMANDS.setApiKey, handler: (lane, secret, value) => setApiKey(deps, lane, secret, value) },
    { id: COMMANDS.startCanary, handler: (lane, options) => startCanaryCommand(deps, lane, options as never) },
    { id: COMMANDS.rollbackCanary, handler: (options) => rollbackCanaryCommand(deps, options as never) },
    { id: COMMANDS.showCanaryReport, handler: () => showCanaryReportCommand(deps) },
    { id: COMMANDS.promoteSalvage, handler: (run, options) => promoteSalvage(deps, run, options) },
    { id: COMMANDS.setPostgresConnection, handler: (value) => setPostgresConnection(deps, value) },
    { id: COMMANDS.tasksTreeRows, handler: () => tasksTreeRows(deps) },
    { id: COMMANDS.openProjectConfig, handler: () => openProjectConfig(deps) },
    { id: COMMANDS.openPullRequest, handler: (task) => openPullRequest(deps, task) },
    { id: COMMANDS.setGitHubToken, handler: (value) => setGitHubToken(deps, value) },
    { id: COMMANDS.openChanges, handler: (item) => openChanges(deps, item) },
    { id: COMMANDS.mergeIntoCurrentBranch, handler: (item) => mergeIntoCurrentBranch(deps, item) },
    { id: COMMANDS.checkOutBranch, handler: (item) => checkOutBranch(deps, item) },
    { id: COMMANDS.showRunLog, handler: (run) => showRunLog(deps, run) },
    { id: COMMANDS.submitTaskDocument, handler: () => submitTaskDocument(deps) },
    { id: COMMANDS.showMoreFinished, handler: () => showMoreFinished(deps) },
  ];
}
