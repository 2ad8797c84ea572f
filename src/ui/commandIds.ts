/**
 * Every command, view and panel id the extension contributes. These strings
 * must match `contributes` in package.json (the integration tests check both).
 */
export const COMMANDS = {
  newTask: 'switchyard.newTask',
  runQueue: 'switchyard.runQueue',
  runTask: 'switchyard.runTask',
  cancelTask: 'switchyard.cancelTask',
  retryTask: 'switchyard.retryTask',
  setDefaultLane: 'switchyard.setDefaultLane',
  setTaskLane: 'switchyard.setTaskLane',
  showRunDiff: 'switchyard.showRunDiff',
  cleanWorktrees: 'switchyard.cleanWorktrees',
  openQueuePanel: 'switchyard.openQueuePanel',
  sendToLane: 'switchyard.sendToLane',
  refresh: 'switchyard.refresh',
  setApiKey: 'switchyard.setApiKey',
  startCanary: 'switchyard.startCanary',
  rollbackCanary: 'switchyard.rollbackCanary',
  showCanaryReport: 'switchyard.showCanaryReport',
  promoteSalvage: 'switchyard.promoteSalvage',
  setPostgresConnection: 'switchyard.setPostgresConnection',
  tasksTreeRows: 'switchyard.tasksTreeRows',
  openProjectConfig: 'switchyard.openProjectConfig',
  openPullRequest: 'switchyard.openPullRequest',
  closePullRequest: 'switchyard.closePullRequest',
  setGitHubToken: 'switchyard.setGitHubToken',
  openChanges: 'switchyard.openChanges',
  mergeIntoCurrentBranch: 'switchyard.mergeIntoCurrentBranch',
  discardChange: 'switchyard.discardChange',
  checkOutBranch: 'switchyard.checkOutBranch',
  showRunLog: 'switchyard.showRunLog',
  submitTaskDocument: 'switchyard.submitTaskDocument',
  showMoreFinished: 'switchyard.showMoreFinished',
  clearFinished: 'switchyard.clearFinished',
  showArchived: 'switchyard.showArchived',
  hideArchived: 'switchyard.hideArchived',
  approveTask: 'switchyard.approveTask',
  filterTasks: 'switchyard.filterTasks',
  clearTaskFilter: 'switchyard.clearTaskFilter',
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandName];

/** Context keys the extension sets (`when` clauses in package.json use them). */
export const CONTEXT_KEYS = {
  /** Some task has a pull request: Open Pull Request shows in the palette. */
  hasPullRequest: 'switchyard.hasPullRequest',
} as const;

export const VIEWS = {
  container: 'switchyard',
  tasks: 'switchyard.tasks',
} as const;

/** The queue panel's webview type; its serializer revives it after a reload. */
export const QUEUE_PANEL_VIEW_TYPE = 'switchyard.queuePanel';

export const SETTINGS = {
  section: 'switchyard',
  lanes: 'lanes',
  runOnSend: 'runOnSend',
  verifyTimeoutSeconds: 'verifyTimeoutSeconds',
  backend: 'backend',
  project: 'project',
  reviewEnabled: 'review.enabled',
  wipRunning: 'wip.running',
  integrationMode: 'integration.mode',
  integrationTargetBranch: 'integration.targetBranch',
  treeFinishedShown: 'tree.finishedShown',
} as const;
