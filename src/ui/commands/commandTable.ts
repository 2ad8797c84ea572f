import { COMMANDS } from '../commandIds';
import { cancelTask } from './cancelTask';
import { cleanWorktrees } from './cleanWorktrees';
import type { CommandDeps } from './commandDeps';
import { newTask } from './newTask';
import { openProjectConfig } from './openProjectConfig';
import { openQueuePanel } from './openQueuePanel';
import { openPullRequest } from './openPullRequest';
import { closePullRequest } from './closePullRequest';
import { setGitHubToken } from './setGitHubToken';
import { promoteSalvage } from './promoteSalvage';
import { refresh } from './refresh';
import type { CommandEntry } from './registerCommands';
import { retryTask } from './retryTask';
import { runQueue } from './runQueue';
import { runQueueRowArgs } from './runQueueRowArgs';
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
import { discardChange } from './discardChange';
import { openChanges } from './openChanges';
import { showRunLog } from './showRunLog';
import { submitTaskDocument } from './submitTaskDocument';
import { showMoreFinished } from './showMoreFinished';
import { clearFinished, showArchived } from './clearFinished';
import { approveTask } from './approveTask';
import { clearTaskFilter, filterTasks } from './filterTasks';
import { rollbackCanaryCommand, showCanaryReportCommand, startCanaryCommand } from './canaryCommands';

/**
 * Every command the extension contributes, with its handler and what it does with a Tasks tree row (`row`, see
 * treeRowArgs: absent means the row is ignored, as VS Code hands the focused row to every view-title button).
 */
export function commandTable(deps: CommandDeps): CommandEntry[] {
  return [
    { id: COMMANDS.newTask, handler: (spec) => newTask(deps, spec) },
    { id: COMMANDS.runQueue, handler: (options) => runQueue(deps, options), row: runQueueRowArgs },
    { id: COMMANDS.runTask, handler: (task) => runTask(deps, task), row: 'row' },
    { id: COMMANDS.cancelTask, handler: (task) => cancelTask(deps, task), row: 'row' },
    { id: COMMANDS.retryTask, handler: (task) => retryTask(deps, task), row: 'row' },
    { id: COMMANDS.setDefaultLane, handler: (lane) => setDefaultLane(deps, lane) },
    { id: COMMANDS.setTaskLane, handler: (task, lane) => setTaskLane(deps, task, lane), row: 'row' },
    { id: COMMANDS.showRunDiff, handler: (run) => showRunDiff(deps, run), row: 'row' },
    { id: COMMANDS.cleanWorktrees, handler: () => cleanWorktrees(deps) },
    { id: COMMANDS.openQueuePanel, handler: () => openQueuePanel(deps) },
    { id: COMMANDS.sendToLane, handler: (uri, options) => sendToLane(deps, uri, options) },
    { id: COMMANDS.refresh, handler: () => refresh(deps) },
    { id: COMMANDS.setApiKey, handler: (lane, secret, value) => setApiKey(deps, lane, secret, value) },
    { id: COMMANDS.startCanary, handler: (lane, options) => startCanaryCommand(deps, lane, options as never) },
    { id: COMMANDS.rollbackCanary, handler: (options) => rollbackCanaryCommand(deps, options as never) },
    { id: COMMANDS.showCanaryReport, handler: () => showCanaryReportCommand(deps) },
    { id: COMMANDS.promoteSalvage, handler: (run, options) => promoteSalvage(deps, run, options), row: 'row' },
    { id: COMMANDS.setPostgresConnection, handler: (value) => setPostgresConnection(deps, value) },
    { id: COMMANDS.tasksTreeRows, handler: () => tasksTreeRows(deps) },
    { id: COMMANDS.openProjectConfig, handler: () => openProjectConfig(deps) },
    { id: COMMANDS.openPullRequest, handler: (task) => openPullRequest(deps, task), row: 'row' },
    { id: COMMANDS.closePullRequest, handler: (task) => closePullRequest(deps, task), row: 'row' },
    { id: COMMANDS.setGitHubToken, handler: (value) => setGitHubToken(deps, value) },
    { id: COMMANDS.openChanges, handler: (item) => openChanges(deps, item), row: 'row' },
    { id: COMMANDS.mergeIntoCurrentBranch, handler: (item) => mergeIntoCurrentBranch(deps, item), row: 'row' },
    { id: COMMANDS.discardChange, handler: (item) => discardChange(deps, item), row: 'row' },
    { id: COMMANDS.checkOutBranch, handler: (item) => checkOutBranch(deps, item), row: 'row' },
    { id: COMMANDS.showRunLog, handler: (run) => showRunLog(deps, run), row: 'row' },
    { id: COMMANDS.submitTaskDocument, handler: () => submitTaskDocument(deps) },
    { id: COMMANDS.showMoreFinished, handler: () => showMoreFinished(deps) },
    { id: COMMANDS.clearFinished, handler: () => clearFinished(deps) },
    { id: COMMANDS.showArchived, handler: () => showArchived(deps, true) },
    { id: COMMANDS.hideArchived, handler: () => showArchived(deps, false) },
    { id: COMMANDS.approveTask, handler: (task) => approveTask(deps, task), row: 'row' },
    { id: COMMANDS.filterTasks, handler: (filter) => filterTasks(deps, filter) },
    { id: COMMANDS.clearTaskFilter, handler: () => clearTaskFilter(deps) },
  ];
}
