import { EventEmitter } from 'node:events';
import { SwitchyardError } from '../errors';
import type { LaneRegistry } from '../lanes/laneRegistry';
import type { Disposable } from '../model/disposable';
import type { Backend } from '../backend/backend';
import { openBackend } from '../backend/openBackend';
import { isFinished } from '../backend/splitState';
import { chainSecretSources, envSecretSource } from '../secrets/secretSource';
import { commandSecretSource } from '../secrets/commandSecretSource';
import { chainGitHubTokens, commandGitHubTokens, envGitHubTokens } from '../credentials/githubTokenStore';
import type { ProjectState } from '../store/projectState';
import { LayeredStateStore } from '../backend/layeredStateStore';
import { resolveRepoRoot } from '../workspace/gitRepo';
import { StateFromRepository } from '../backend/stateFromRepository';
import { untrustedNotice } from '../store/untrustedNotice';
import type { RunContext } from '../engine/runContext';
import { makeOwnerId } from '../lease/ownerId';
import { runQueue, type QueueOptions, type QueueSummary } from '../engine/drain/queueRunner';
import { eventsPath, readRunLog } from '../store/runFiles';
import { StageGate } from '../engine/stageGate';
import { TraceLog, readTrace, type TraceLine } from '../store/traceLog';
import { BUILTIN_ERROR_RULES } from '../retry/errorRules';
import { loadErrorRules, type ErrorRule } from '../retry/classifyError';
import { buildReport, type ProjectReport } from '../report/buildReport';
import type { RecentState } from '../panel/finishedWindow';
import type { ProjectCore } from './projectCore';
import type { ProjectOptions } from './projectOptions';
import { TaskService } from './taskService';
import { RunService } from './runService';
import { RoutingService } from './routingService';
import { SettingsService } from './settingsService';
import { BranchService } from './branchService';
import { WorktreeService } from './worktreeService';
import { LaneService } from './laneService';

export type { QueueOptions, QueueSummary } from '../engine/drain/queueRunner';
export type { ProjectSettings, ProjectState } from '../store/projectState';
export type { ProjectOptions } from './projectOptions';
export type { RecentState } from '../panel/finishedWindow';
export type { ProjectReport } from '../report/buildReport';

/**
 * One repository under Switchyard: the façade the CLI and the extension both
 * use. It owns no UI and never imports `vscode`. What it does is grouped in
 * small services (`tasks`, `runs`, `routing`, `settings`, `branches`,
 * `worktrees`, `lanes`); the project itself opens and closes, reads the state,
 * drains the queue, reports, and tells listeners about changes.
 */
export class Project {
  /** Adding, canceling, approving and retrying tasks, their lane; finding stored tasks. */
  readonly tasks: TaskService;
  /** What a run left behind: its journal, event log, diff and changed files. */
  readonly runs: RunService;
  /** The default lane and canaries. */
  readonly routing: RoutingService;
  /** The effective settings, their layers and what trust withholds; edits. */
  readonly settings: SettingsService;
  /** A change merged into the user's branch, discarded or checked out; branches pruned; pull requests closed. */
  readonly branches: BranchService;
  /** The runs' worktrees and salvaged work. */
  readonly worktrees: WorktreeService;
  /** The registered lanes and whether each can run here. */
  readonly lanes: LaneService;
  private readonly events = new EventEmitter();
  private readonly ctx: RunContext;
  private rules: readonly ErrorRule[] = BUILTIN_ERROR_RULES;
  /** Tasks, runs and settings in the backend; the UI and the CLI go through the services above. */
  private readonly store: LayeredStateStore;

  private constructor(
    readonly root: string,
    private readonly backend: Backend,
    readonly registry: LaneRegistry,
    options: ProjectOptions,
  ) {
    const { trusted, editorSettings: editor } = options;
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
      typeof editor === 'function' ? editor : () => editor ?? {},
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
    const core: ProjectCore = {
      root,
      store,
      ctx: this.ctx,
      registry,
      command: async (change) => {
        const result = await change();
        this.changed();
        return result;
      },
    };
    this.tasks = new TaskService(core);
    this.runs = new RunService(core);
    this.routing = new RoutingService(core);
    this.settings = new SettingsService(core);
    this.branches = new BranchService(core);
    this.worktrees = new WorktreeService(core);
    this.lanes = new LaneService(core);
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

  onDidChange(listener: () => void): Disposable {
    this.events.on('change', listener);
    return { dispose: () => this.events.off('change', listener) };
  }

  onRunEvent(listener: (runId: string, type: string, body: Record<string, unknown>) => void): Disposable {
    this.events.on('run-event', listener);
    return { dispose: () => this.events.off('run-event', listener) };
  }

  /** After every change a service makes (`ProjectCore.command`): wakes a drain of this process, tells listeners. */
  private changed(): void {
    this.ctx.stageGate.notify();
    this.events.emit('change');
  }
}
