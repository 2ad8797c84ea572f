import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { SwitchyardError } from './errors';
import type { LaneRegistry } from './lanes/laneRegistry';
import type { Disposable } from './model/disposable';
import type { Task, TaskSpecInput } from './model/task';
import type { Backend } from './backend/backend';
import type { BackendSpec } from './backend/backendSpec';
import { openBackend } from './backend/openBackend';
import { isFinished } from './backend/splitState';
import type { FinishedPage, ListFinishedOptions } from './backend/stateStore';
import type { JournalRead } from './journal/journalReader';
import { canaryReport, type CanaryReport } from './routing/canaryReport';
import {
  type CanaryThresholds,
  type ChangeAuthor,
  DEFAULT_CANARY_THRESHOLDS,
  changeCanaryThresholds,
  endCanary,
  rollbackCanary,
  setDefaultLaneRecorded,
  startCanary,
} from './routing/routingChanges';
import type { RoutingChange } from './model/routingState';
import { whoAmI } from './routing/whoAmI';
import { chainSecretSources, envSecretSource, type SecretSource } from './secrets/secretSource';
import { commandSecretSource } from './secrets/commandSecretSource';
import {
  chainGitHubTokens,
  commandGitHubTokens,
  envGitHubTokens,
  type GitHubTokenStore,
} from './credentials/githubTokenStore';
import type { ProjectSettings, ProjectState } from './store/projectState';
import { type LayeredSettings, within } from './store/settingsLayers';
import { LayeredStateStore } from './backend/layeredStateStore';
import { type ConfigEdit, editProjectConfig } from './engine/commands/projectConfigEdits';
import { listWorktrees, removeWorktree, type WorktreeInfo } from './workspace/worktrees';
import { headCommit, resolveRepoRoot } from './workspace/gitRepo';
import { StateFromRepository } from './backend/stateFromRepository';
import { untrustedNotice } from './store/untrustedNotice';
import { measureWorktreeUsage, readWorktreeUsage, type WorktreeUsage } from './workspace/worktreeUsage';
import {
  listSalvage,
  promoteSalvage,
  type PromoteOptions,
  type Promotion,
  type SalvageEntry,
} from './workspace/promoteSalvage';
import type { RunContext } from './engine/runContext';
import { makeOwnerId } from './lease/ownerId';
import { runQueue, type QueueOptions, type QueueSummary } from './engine/drain/queueRunner';
import { addTasks, approveTask, cancelTask, retryTask, setTaskLane } from './engine/commands/taskCommands';
import { diffPath, eventsPath, readRunLog, type RunLogLine } from './store/runFiles';
import { StageGate } from './engine/stageGate';
import { TraceLog, readTrace, type TraceLine } from './store/traceLog';
import { BUILTIN_ERROR_RULES } from './retry/errorRules';
import { loadErrorRules, type ErrorRule } from './retry/classifyError';
import { buildReport, type ProjectReport } from './report/buildReport';
import type { RecentState } from './panel/finishedWindow';
import { fileAtCommit } from './git/changedFiles';
import { currentBranch } from './git/workingTreeChanges';
import { type RunChanges, runChanges } from './workspace/runChanges';
import { checkOutBranch, type MergeOutcome, mergeIntoCurrentBranch } from './workspace/mergeIntoCurrentBranch';
import { taskCommitMessage } from './workspace/taskCommit';
import { deleteTaskBranches, pruneTaskBranches } from './engine/drain/branchRetention';
import { type ClosedPullRequest, closeTaskPullRequest } from './engine/integration/closeTaskPullRequest';
import type { Run } from './model/run';
import { ReadinessCache } from './lanes/laneReadiness';
import type { LaneReadiness } from './lanes/lanePlugin';
import type { LaneManifest } from './model/laneManifest';

/** A registered lane and whether it can run as configured. */
export interface LaneStatus {
  manifest: LaneManifest;
  readiness: LaneReadiness;
}

export interface ProjectOptions {
  registry: LaneRegistry;
  parentEnv?: NodeJS.ProcessEnv;
  /** Where lane secrets come from first (VS Code passes SecretStorage); then the environment, then secret commands. */
  secrets?: SecretSource;
  /** GitHub tokens by host asked first (VS Code passes SecretStorage's per-host tokens); then the environment. */
  githubTokens?: GitHubTokenStore;
  laneSettingsOverride?(laneId: string): Record<string, unknown> | undefined;
  /**
   * The command the pre-push hook in each run's worktree runs; default: this CLI when running as dist/cli.js; null: no
   * hook.
   */
  hookCommand?: string | null;
  /**
   * Where state, leases and journals live (default: files under `.switchyard/`); a function gets the repository root.
   */
  backend?: BackendSpec | ((root: string) => BackendSpec | Promise<BackendSpec>);
  /** How this process appears as the owner of its runs (default: the host name). */
  ownerName?: string;
  /**
   * Whether the workspace is trusted (CLI: `switchyard trust`; VS Code: workspace trust). Untrusted (the default), the
   * committed `.switchyard/config.json` may not make Switchyard run a command: those keys are ignored.
   */
  trusted?: boolean | (() => boolean | Promise<boolean>);
  /**
   * Project settings set in the editor (VS Code's Settings UI), by dotted key (`review.enabled`, `wip.RUNNING`):
   * they win over the committed config and the local state, and are never stored.
   */
  editorSettings?: Readonly<Record<string, unknown>>;
  /** Keeps the worktrees of integrated runs (default: removed once integrated); for measuring what they cost. */
  keepIntegratedWorktrees?: boolean;
}

/**
 * One repository under Switchyard: the façade the CLI and the extension both
 * use. It owns no UI and never imports `vscode`.
 */
export class Project {
  private readonly events = new EventEmitter();
  private readonly ctx: RunContext;
  private rules: readonly ErrorRule[] = BUILTIN_ERROR_RULES;
  private readonly readiness = new ReadinessCache();
  /** Tasks, runs and settings in the backend; the UI and the CLI go through the methods below. */
  private readonly store: LayeredStateStore;

  private constructor(
    readonly root: string,
    private readonly backend: Backend,
    readonly registry: LaneRegistry,
    options: ProjectOptions,
  ) {
    const trusted = options.trusted;
    const isTrusted = typeof trusted === 'function' ? trusted : () => !!trusted;
    // Only the files backend keeps its state in the work tree, where a clone can put one.
    const fromRepository = backend.kind === 'files' ? new StateFromRepository(root) : undefined;
    const store = new LayeredStateStore(
      backend.state,
      root,
      {
        trusted: isTrusted,
        trackedState: async () => (await fromRepository?.tracked()) ?? [],
        laneClass: (laneId, setting) => registry.get(laneId)?.manifest.settings[setting]?.class,
      },
      options.editorSettings,
    );
    this.store = store;
    const commands = commandSecretSource(async () => (await store.read()).settings.secretCommands, root);
    this.ctx = {
      root,
      store,
      leases: backend.leases,
      journals: backend.journals,
      registry,
      owner: makeOwnerId(options.ownerName),
      parentEnv: options.parentEnv ?? process.env,
      secrets: chainSecretSources(
        ...(options.secrets ? [options.secrets] : []),
        envSecretSource(options.parentEnv ?? process.env),
        commands,
      ),
      githubTokens: chainGitHubTokens(
        ...(options.githubTokens ? [options.githubTokens] : []),
        envGitHubTokens(options.parentEnv ?? process.env),
        commandGitHubTokens(commands, options.parentEnv ?? process.env),
      ),
      settingOrigin: async (key) => {
        const layers = await store.layers();
        const source = layers.sources.get(key) ?? 'default';
        const withheld = layers.ignored.find((i) => i.key === key);
        if (source === 'default' && withheld) return { source: 'committed', trusted: false, withheld: withheld.value };
        return { source, trusted: await isTrusted() };
      },
      laneSettingsOverride: options.laneSettingsOverride,
      watchState: (listener) => {
        const watching = backend.watch(listener);
        return () => watching.dispose();
      },
      stageGate: new StageGate(store),
      trace: new TraceLog(root),
      errorRules: () => this.rules,
      ...(options.hookCommand !== undefined ? { hookCommand: options.hookCommand } : {}),
      ...(options.keepIntegratedWorktrees ? { keepIntegratedWorktrees: true } : {}),
      onChange: () => this.events.emit('change'),
      onRunEvent: (runId, type, body) => this.events.emit('run-event', runId, type, body),
    };
  }

  /** Opens the repository that contains `dir`; not a git repository or a corrupt state file is an error. */
  static async open(dir: string, options: ProjectOptions): Promise<Project> {
    const root = await resolveRepoRoot(dir);
    const spec = typeof options.backend === 'function' ? await options.backend(root) : options.backend;
    const backend = await openBackend(root, spec);
    return new Project(root, backend, options.registry, options);
  }

  /** Closes the backend's connections; the project is not used afterwards. */
  close(): Promise<void> {
    return this.backend.close();
  }

  /** The run's durable journal, validated. */
  readJournal(runId: string): Promise<JournalRead & { where: string }> {
    return this.backend.journals.read(runId);
  }

  /** Calls `listener` when any process changes the state (another window, a worker on another machine). */
  onExternalChange(listener: () => void): Disposable {
    return this.backend.watch(listener);
  }

  /** Which backend holds the project (`files`, `postgres`) and where, without secrets. */
  get backendInfo(): { kind: string; description: string } {
    return { kind: this.backend.kind, description: this.backend.description };
  }

  /** This process as the owner of the runs it starts. */
  get owner(): string {
    return this.ctx.owner;
  }

  state(): Promise<ProjectState> {
    return this.store.read();
  }

  /** The effective settings, without reading the tasks' history. */
  async settings(): Promise<ProjectSettings> {
    return (await this.store.readWorking()).settings;
  }

  /**
   * The unfinished tasks and the `finished` newest finished ones, with their runs, without reading the whole
   * history; `more` says whether older finished tasks were left out.
   */
  async recentState(finished: number): Promise<RecentState> {
    // A page of one at least (the store's listFinished fails on a limit of 0): with 0, it only says whether any exist.
    const [state, read] = await Promise.all([
      this.store.readWorking(),
      this.store.listFinished({ limit: Math.max(1, finished) }),
    ]);
    const page = finished > 0 ? read : { tasks: [], runs: [], ...(read.tasks.length ? { next: '' } : {}) };
    const newestFirst = page.tasks.map((t) => t.id);
    const shown = new Set(newestFirst);
    const active = state.tasks.filter(
      (t) =>
        !shown.has(t.id) &&
        !isFinished(
          t,
          state.runs.filter((r) => r.taskId === t.id),
        ),
    );
    const activeIds = new Set(active.map((t) => t.id));
    state.tasks = [...page.tasks.reverse(), ...active];
    state.runs = [
      ...page.runs.filter((r) => shown.has(r.taskId)),
      ...state.runs.filter((r) => activeIds.has(r.taskId)),
    ];
    return { state, finished: newestFirst, more: page.next !== undefined };
  }

  /** A page of finished tasks, newest first, with their runs (report, the tree and the panel page with it). */
  listFinished(options: ListFinishedOptions): Promise<FinishedPage> {
    return this.store.listFinished(options);
  }

  /** The tasks with these ids as stored now, wherever they are (the newest are found without reading the history). */
  findTasks(ids: Iterable<string>): Promise<Map<string, Task>> {
    return this.store.findFinished(ids);
  }

  async addTasks(specs: readonly unknown[], where?: string): Promise<Task[]> {
    const tasks = await addTasks(this.store, this.registry, specs, await headCommit(this.root), where);
    this.changed();
    return tasks;
  }

  async addTask(spec: TaskSpecInput): Promise<Task> {
    return (await this.addTasks([spec]))[0]!;
  }

  async cancelTask(id: string): Promise<Task> {
    const task = await cancelTask(this.store, id);
    this.ctx.trace.append({
      type: 'decision',
      kind: 'cancel',
      task: id,
      message: `task ${id} canceled by the user: generation ${task.generation}; a result that still arrives is kept as STALE_RESULT`,
    });
    this.changed();
    return task;
  }

  /** Approves a DRAFT task, so the scheduler may start it. */
  async approveTask(id: string): Promise<Task> {
    const task = await approveTask(this.store, id);
    this.ctx.trace.append({
      type: 'decision',
      kind: 'approve',
      task: id,
      message: `task ${id} approved: ${task.state}`,
    });
    this.changed();
    return task;
  }

  async retryTask(id: string): Promise<Task> {
    const task = await retryTask(this.store, id);
    this.changed();
    return task;
  }

  async setTaskLane(id: string, lane: string): Promise<Task> {
    const task = await setTaskLane(this.store, this.registry, id, lane);
    this.changed();
    return task;
  }

  /** Sets the project's default lane as one recorded routing change (who: git's user.email, and `why`). */
  setDefaultLane(lane: string, why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => setDefaultLaneRecorded(this.store, this.registry, lane, author));
  }

  /** Makes `lane` the default as a canary judged against the current default; unset thresholds take the defaults. */
  startCanary(lane: string, thresholds: Partial<CanaryThresholds>, why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) =>
      startCanary(this.store, this.registry, lane, { ...DEFAULT_CANARY_THRESHOLDS, ...thresholds }, author),
    );
  }

  /** Restores the default lane from before the canary. */
  rollbackCanary(why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => rollbackCanary(this.store, author));
  }

  /** Keeps the canary lane as the default and stops judging it. */
  endCanary(why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => endCanary(this.store, author));
  }

  changeCanaryThresholds(thresholds: Partial<CanaryThresholds>, why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => changeCanaryThresholds(this.store, thresholds, author));
  }

  /** The running canary against its baseline, with the verdict; `undefined` when no canary runs. */
  async canaryReport(): Promise<CanaryReport | undefined> {
    const state = await this.store.read();
    return state.routing.canary ? canaryReport(state, state.routing.canary) : undefined;
  }

  /** Runs whose partial work was salvaged, newest first. */
  salvaged(): Promise<SalvageEntry[]> {
    return listSalvage({ root: this.root, store: this.store });
  }

  /** Puts a run's salvaged work on a branch of the user's; the working tree is never touched. */
  promoteSalvage(runId: string, options: PromoteOptions = {}): Promise<Promotion> {
    return promoteSalvage({ root: this.root, store: this.store }, runId, options);
  }

  async updateSettings(change: (settings: ProjectSettings) => void): Promise<ProjectSettings> {
    const settings = await this.store.update((s) => {
      change(s.settings);
      return s.settings;
    });
    this.changed();
    return settings;
  }

  /** The effective settings, where each comes from (default, committed, local) and what the committed file ignored. */
  settingsLayers(): Promise<LayeredSettings> {
    return this.store.layers();
  }

  /**
   * What the workspace's trust withholds, as one message: the settings the repository carries that were ignored (by
   * file and class), and the tasks of a state file that came with it; nothing withheld: undefined.
   */
  async configNotice(): Promise<string | undefined> {
    const [{ ignored }, held] = await Promise.all([this.store.layers(), this.store.heldState()]);
    return untrustedNotice(this.root, ignored, held);
  }

  /**
   * What the workspace's trust withholds of `key` (the key, a setting inside it or the group it is in), as one
   * message; nothing: undefined. Said right after `config set` stores a value that will not apply.
   */
  async ignoredNotice(key: string): Promise<string | undefined> {
    const { ignored } = await this.store.layers();
    const hits = ignored.filter((i) => within(i.key, key) || within(key, i.key));
    return untrustedNotice(this.root, hits, []);
  }

  /** Sets or (no `text`) unsets a config key in the committed file, or with `local` in this machine's override. */
  async editConfig(edit: ConfigEdit): Promise<{ file: string; value: unknown }> {
    const result = await editProjectConfig(this.root, this.store, edit);
    this.changed();
    return result;
  }

  /**
   * Every registered lane (sorted by id) with whether it can run as configured here: its settings (the project's and
   * the editor's), its secrets, its own cheap check. Answers are cached for a short while; `fresh` checks again.
   */
  async laneStatuses(fresh = false): Promise<LaneStatus[]> {
    if (fresh) this.readiness.clear();
    const state = await this.store.read();
    return Promise.all(
      this.registry.list().map(async (lane) => {
        const id = lane.manifest.id;
        const settings = { ...(state.settings.laneSettings[id] ?? {}), ...(this.ctx.laneSettingsOverride?.(id) ?? {}) };
        const readiness = await this.readiness.get(lane, {
          settings,
          secrets: this.ctx.secrets,
          parentEnv: this.ctx.parentEnv,
        });
        return { manifest: lane.manifest, readiness };
      }),
    );
  }

  /** Drains the queue (or runs only `taskIds`). */
  async runQueue(options: QueueOptions = {}): Promise<QueueSummary> {
    // The project's error rules (.switchyard/error-rules.json) decide retries; a bad file is reported and the built-in
    // rules apply.
    this.rules = await loadErrorRules(this.root).catch((error: unknown) => {
      this.ctx.trace.append({
        type: 'decision',
        kind: 'config',
        message: `error rules not loaded, built-in rules apply: ${(error as Error).message}`,
      });
      return [...BUILTIN_ERROR_RULES];
    });
    // Tasks that came with the repository do not run (nor are its runs resumed) until it is trusted.
    const held = await this.store.heldState();
    if (held.length) throw new SwitchyardError('untrusted-workspace', untrustedNotice(this.root, [], held)!);
    return runQueue(this.ctx, options);
  }

  /**
   * Why things happened: per task, its runs' decisions and the scheduler's, in time order. Over every task, or with
   * `finished`, over the unfinished tasks and that many of the newest finished ones (`finished` in the report says
   * how many it holds and whether older ones were left out).
   */
  async report(options: { finished?: number } = {}): Promise<ProjectReport> {
    const recent = options.finished === undefined ? undefined : await this.recentState(options.finished);
    const state = recent?.state ?? (await this.store.read());
    const logs = new Map(
      await Promise.all(state.runs.map(async (r) => [r.id, await readRunLog(eventsPath(this.root, r.id))] as const)),
    );
    const report = buildReport(state, logs, await readTrace(this.root));
    return recent ? { ...report, finished: { shown: recent.finished.length, more: recent.more } } : report;
  }

  /** The scheduler's trace: decisions and per-tick signals, oldest first. */
  trace(): Promise<TraceLine[]> {
    return readTrace(this.root);
  }

  async diff(runId: string): Promise<string> {
    const state = await this.store.read();
    const run = state.runs.find((r) => r.id === runId);
    if (!run) {
      throw new SwitchyardError(
        'unknown-run',
        `unknown run "${runId}"${state.runs.length ? `; runs: ${state.runs.map((r) => r.id).join(', ')}` : ''}`,
      );
    }
    return readFile(diffPath(this.root, runId), 'utf8').catch(() => {
      throw new SwitchyardError('unknown-run', `run ${runId} has no captured diff (state ${run.state})`);
    });
  }

  runLog(runId: string): Promise<RunLogLine[]> {
    return readRunLog(eventsPath(this.root, runId));
  }

  /** The files a run changed between the task's base and the run's commit. */
  async runChanges(runId: string): Promise<RunChanges> {
    return runChanges(this.root, await this.findRun(runId));
  }

  /** A file's text at a commit of this repository; undefined when the commit has no such file. */
  fileAt(commit: string, path: string): Promise<string | undefined> {
    return fileAtCommit(this.root, commit, path);
  }

  /**
   * Takes a run's change (a DONE task's, by task or run id) into the branch checked out in the repository as one
   * commit, and records on the task where it went. Refuses on uncommitted changes or a detached HEAD; a conflict
   * changes nothing.
   */
  async mergeRunIntoCurrentBranch(id: string): Promise<MergeOutcome> {
    const { task, run } = await this.changeOf(id);
    if (task.state !== 'DONE' || !run.headCommit) {
      throw new SwitchyardError(
        'invalid-input',
        `task ${task.id} is ${task.state}: only a DONE task's change is merged (\`switchyard checkout ${task.id}\` checks out its last run to look at it)`,
      );
    }
    if (task.discarded) {
      throw new SwitchyardError(
        'invalid-input',
        `task ${task.id}'s change was discarded (${task.discarded.at}): it is not merged; Retry Task runs the task again`,
      );
    }
    const outcome = await mergeIntoCurrentBranch(this.root, {
      base: run.baseCommit,
      head: run.headCommit,
      message: taskCommitMessage(task, run.id),
      label: `${task.id} (${run.branch})`,
    });
    if (!outcome.upToDate) {
      const merged = { branch: outcome.into, commit: outcome.commit, runId: run.id, at: new Date().toISOString() };
      await this.store.update((state) => {
        const t = state.tasks.find((x) => x.id === task.id);
        if (t) t.merged = merged;
      });
      this.changed();
    }
    return outcome;
  }

  /**
   * Discards a DONE task's change (by task or run id) after review: the task is marked discarded (it stays DONE, and
   * Merge refuses it), then its run branches are deleted with their worktrees. A change already merged by a person, or
   * one a pull request took into its base, is refused: it has landed. A commit the change already has on the
   * integration branch stays there (that branch is never merged whole). Returns the task and one line per branch.
   */
  async discardChange(id: string): Promise<{ task: Task; lines: string[] }> {
    const { task, run } = await this.changeOf(id);
    if (task.state !== 'DONE') {
      throw new SwitchyardError(
        'invalid-input',
        `task ${task.id} is ${task.state}: only a DONE task's change is discarded (Cancel Task stops one in progress)`,
      );
    }
    const landed = task.merged
      ? `it was merged into ${task.merged.branch} (${task.merged.commit.slice(0, 12)}): revert that commit instead`
      : task.integration?.pullRequest
        ? `its pull request #${task.integration.pullRequest.number} was merged into ${task.integration.branch}`
        : undefined;
    if (landed) throw new SwitchyardError('invalid-input', `task ${task.id}'s change is not discarded: ${landed}`);
    const discarded = task.discarded ?? { runId: run.id, at: new Date().toISOString() };
    const stored = await this.store.update((state) => {
      const t = state.tasks.find((x) => x.id === task.id);
      if (!t) throw new SwitchyardError('invalid-input', `unknown task "${task.id}"`);
      t.discarded = discarded;
      return t;
    });
    this.ctx.trace.append({
      type: 'decision',
      kind: 'discard',
      task: task.id,
      message: `task ${task.id}'s change (run ${discarded.runId}) discarded by the user: its run branches are deleted`,
    });
    this.changed();
    return { task: stored, lines: await deleteTaskBranches(this.root, task.id) };
  }

  /** Checks out the branch of a run (a task's last run, by task or run id); refuses on uncommitted changes. */
  async checkOutRunBranch(id: string): Promise<string> {
    const { run } = await this.changeOf(id);
    await checkOutBranch(this.root, run.branch);
    return run.branch;
  }

  /** Deletes now the branches `worktree.keepBranchesDays` would delete later (DONE tasks integrated or merged). */
  pruneBranches(): Promise<string[]> {
    return pruneTaskBranches(this.ctx, 0);
  }

  /** The branch checked out in the project's folder (undefined: a detached HEAD). */
  currentBranch(): Promise<string | undefined> {
    return currentBranch(this.root);
  }

  /** Closes the task's open pull request on GitHub without merging it (a FAILED task's); its branch stays. */
  async closePullRequest(taskId: string): Promise<ClosedPullRequest> {
    const closed = await closeTaskPullRequest(this.ctx, taskId);
    this.changed();
    return closed;
  }

  /** A task id (its last run) or a run id → the task and the run whose change is taken. */
  private async changeOf(id: string): Promise<{ task: Task; run: Run }> {
    const state = await this.store.read();
    const byTask = state.tasks.find((t) => t.id === id);
    const runId = byTask ? (byTask.integration?.runId ?? byTask.lastRunId) : id;
    if (byTask && !runId) throw new SwitchyardError('invalid-input', `task ${id} has no run yet (${byTask.state})`);
    const run = await this.findRun(runId!);
    const task = byTask ?? state.tasks.find((t) => t.id === run.taskId);
    if (!task) throw new SwitchyardError('unknown-run', `run ${run.id} belongs to no task`);
    return { task, run };
  }

  private async findRun(runId: string): Promise<Run> {
    const state = await this.store.read();
    const run = state.runs.find((r) => r.id === runId);
    if (run) return run;
    throw new SwitchyardError(
      'unknown-run',
      `unknown run "${runId}"${state.runs.length ? `; runs: ${state.runs.map((r) => r.id).join(', ')}` : ''}`,
    );
  }

  worktrees(): Promise<WorktreeInfo[]> {
    return listWorktrees(this.root);
  }

  /** Removes the worktrees of runs that are no longer running; their branches and diffs stay. */
  async cleanWorktrees(): Promise<string[]> {
    const state = await this.store.read();
    const busy = new Set(
      state.runs.filter((r) => r.state === 'RUNNING').flatMap((r) => [r.worktree, `${r.worktree}.review`]),
    );
    const removed: string[] = [];
    for (const wt of await listWorktrees(this.root)) {
      if (busy.has(wt.path)) continue;
      await removeWorktree(this.root, wt.path);
      removed.push(wt.path);
    }
    await measureWorktreeUsage(this.root).catch(() => undefined);
    return removed;
  }

  /** How many worktrees exist now, and their size as measured by the last drain or clean (absent when unknown). */
  worktreeUsage(): Promise<WorktreeUsage> {
    return readWorktreeUsage(this.root);
  }

  onDidChange(listener: () => void): Disposable {
    this.events.on('change', listener);
    return { dispose: () => this.events.off('change', listener) };
  }

  onRunEvent(listener: (runId: string, type: string, body: Record<string, unknown>) => void): Disposable {
    this.events.on('run-event', listener);
    return { dispose: () => this.events.off('run-event', listener) };
  }

  /** A routing change, recorded with who (git's user.email) and why. */
  private async recorded(
    why: string,
    change: (author: ChangeAuthor) => Promise<RoutingChange>,
  ): Promise<RoutingChange> {
    const result = await change({ who: await whoAmI(this.root), why });
    this.changed();
    return result;
  }

  /**
   * Every change this project makes to the queue, its settings or its routing ends here: a drain running in this
   * process looks at the queue again at once (a task the change lets start starts now), and listeners are told.
   */
  private changed(): void {
    this.ctx.stageGate.notify();
    this.events.emit('change');
  }
}
