import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { Run } from '../model/run';
import { Task } from '../model/task';
import { describeZodError } from '../model/zodIssues';
import { AtomicJsonFile } from '../store/atomicJsonFile';
import { ProjectState, STATE_VERSION, emptyProjectState } from '../store/projectState';
import { type FileStamp, fileStamp } from '../store/fileStamp';
import { STATE_DIR, ensureStateDir } from '../store/stateDir';
import { type FileLockOptions, type LockHold, currentHold, withFileLock } from '../store/fileLock';
import { markSharedPrefix } from '../store/sharedPrefix';
import { EMPTY_HISTORY, type FinishedRecord, HistoryMark, TaskHistory, compareMarks } from '../store/taskHistory';
import type { FinishedPage, ListFinishedOptions, StateStore } from './stateStore';
import type { LeaseView } from '../lease/leaseStore';
import { filesLeaseView } from './filesLeaseStore';
import { HistoryIndex } from './historyIndex';
import { isFinished, type Split, splitState } from './splitState';
import { appendSamples, historySamples } from '../scheduler/laneCosts';
import { HistoryNeeded, type HistorySamples, markWorkingOnly } from '../store/workingOnly';
import { keepMigrationBackup } from './stateBackup';
import { ValidationMemo } from './validationMemo';

export { STATE_DIR };

/**
 * `state.json` since the history: version 2 names how far `.switchyard/history/` is committed; version 3 adds the
 * history's lane cost samples (an older Switchyard then says the file is newer, instead of refusing an unknown key).
 */
export const STATE_FILE_VERSION = 3;
const StateFile = ProjectState.extend({
  version: z.union([z.literal(STATE_VERSION), z.literal(2), z.literal(STATE_FILE_VERSION)]),
  history: HistoryMark.optional(),
  /**
   * The lane cost samples of the history as of `history` (see `historySamples`): a working-set-only state carries
   * them, so the scheduler's estimates need no read of the history. Absent in files written before them: the next
   * update takes them from the history, and every update after keeps them.
   */
  historySamples: z.record(z.string(), z.array(z.number())).optional(),
}).strict();
type StateFile = z.infer<typeof StateFile>;

interface Working {
  bytes: Buffer;
  /** The file's stamp taken before `bytes` were read (or after this process wrote them, under the lock). */
  stamp: FileStamp;
  state: ProjectState;
  /** `state` as compact JSON: a copy is a parse of it (faster than a structured clone, and the same JSON values). */
  json: string;
  ids: ReadonlySet<string>;
  mark: HistoryMark;
  /** The history's lane cost samples as of `mark`; undefined until known (a file from before them). */
  samples: HistorySamples | undefined;
  /** Read or written under this hold of the lock, after this many writes under it (see `refreshWorking`). */
  held?: { hold: LockHold; writes: number } | undefined;
}

/**
 * The project's state under `<repo>/.switchyard/`: the working set (settings, counters, the tasks not finished, the
 * newest finished ones, their runs) in `state.json`, and every other finished task with its runs in the append-only
 * `history/` (TaskHistory). A read costs a read of `state.json` (parsed and validated only when its bytes changed)
 * and of the history bytes appended since the last read; an update rewrites `state.json` and appends the tasks that
 * leave it. Every change is a locked read-modify-write, so a VS Code window and a CLI on the same repository do not
 * lose each other's updates. A `state.json` from before the history is split on open, after a backup.
 */
export class ProjectStore implements StateStore {
  readonly dir: string;
  readonly file: string;
  readonly history: TaskHistory;
  private readonly json: AtomicJsonFile<StateFile>;
  private working: Working | undefined;
  private readonly index = new HistoryIndex();
  private indexLoaded = false;
  private readonly valid = new ValidationMemo();
  private readonly lockPath: string;
  private readonly lockOptions: FileLockOptions;

  private constructor(readonly repoRoot: string) {
    this.dir = join(repoRoot, STATE_DIR);
    this.file = join(this.dir, 'state.json');
    this.history = new TaskHistory(join(this.dir, 'history'));
    this.json = new AtomicJsonFile(this.file, StateFile, { version: STATE_FILE_VERSION });
    this.lockPath = join(this.dir, 'state.lock');
    this.lockOptions = {
      target: this.dir,
      staleMs: 10_000,
      waitMs: 20_000,
      lockError: (error) =>
        new SwitchyardError('store-locked', `could not lock ${this.file}: ${error.message}`, { cause: error }),
    };
  }

  /** Opens (and on first use creates, or migrates) the store; a corrupt state file is an error, never overwritten. */
  static async open(repoRoot: string): Promise<ProjectStore> {
    const store = new ProjectStore(repoRoot);
    await ensureStateDir(repoRoot);
    if (!(await exists(store.file))) {
      await store.locked(async () => {
        if (!(await exists(store.file)))
          await store.writeState({
            ...emptyProjectState(),
            version: STATE_FILE_VERSION,
            history: EMPTY_HISTORY,
            historySamples: {},
          });
      });
    }
    const first = await store.json.read();
    if (first && first.history === undefined) await store.locked(() => store.migrate());
    await store.refreshWorking();
    return store;
  }

  /** A fresh copy of the state: the working set copied, the history's frozen entries shared. */
  async read(): Promise<ProjectState> {
    const working = await this.refreshWorking();
    await this.refreshIndex(working.mark);
    return this.compose(working);
  }

  /**
   * The working set alone (no history read): the tasks not finished and the newest finished ones, marked with the
   * history's lane cost samples (see `workingOnlyInfo`) once `state.json` has them (the next update of a file from
   * before them writes them).
   */
  async readWorking(): Promise<ProjectState> {
    const working = await this.refreshWorking();
    const state = JSON.parse(working.json) as ProjectState;
    if (working.samples) markWorkingOnly(state, { samples: working.samples }, false);
    return state;
  }

  /**
   * The latest record of each id, for ids outside the working set or in it: the working set first, then the history
   * newest first, read only as far as the last id asked for (the whole history when one is in neither).
   */
  async findFinished(ids: Iterable<string>): Promise<Map<string, Task>> {
    const working = await this.refreshWorking();
    const wanted = new Set(ids);
    const found = new Map<string, Task>();
    for (const task of working.state.tasks) if (wanted.delete(task.id)) found.set(task.id, structuredClone(task));
    if (!wanted.size) return found;
    if (this.indexLoaded && compareMarks(this.index.mark, working.mark) === 0) {
      for (const id of wanted) {
        const record = this.index.records.get(id);
        if (record) found.set(id, structuredClone(record.task));
      }
      return found;
    }
    for await (const record of this.visibleNewestFirst(working)) {
      if (wanted.delete(record.task.id)) found.set(record.task.id, record.task);
      if (!wanted.size) break;
    }
    return found;
  }

  /**
   * The history's finished tasks as a composed state shows them, newest first: the latest record of each id, none
   * removed, none a task of the working set hides. Read a segment at a time, as far as the caller iterates.
   */
  private async *visibleNewestFirst(working: Working): AsyncGenerator<FinishedRecord> {
    const seen = new Set(working.ids);
    for await (const record of this.history.newestFirst(working.mark)) {
      const id = 'removed' in record ? record.removed : record.task.id;
      if (seen.has(id)) continue;
      seen.add(id);
      if ('task' in record) yield record;
    }
  }

  /** Finished tasks newest first (the working set's, then the history's), `limit` of them after `before`. */
  async listFinished(options: ListFinishedOptions): Promise<FinishedPage> {
    const working = await this.refreshWorking();
    const page: FinishedPage = { tasks: [], runs: [] };
    let skipping = options.before !== undefined;
    const take = (task: Task, runs: readonly Run[]): boolean => {
      if (skipping) {
        skipping = task.id !== options.before;
        return false;
      }
      if (page.tasks.length === options.limit) {
        page.next = page.tasks[page.tasks.length - 1]!.id;
        return true;
      }
      page.tasks.push(structuredClone(task));
      page.runs.push(...structuredClone(runs));
      return false;
    };
    const finished = working.state.tasks.filter((t) => isFinished(t, runsOf(working.state.runs, t.id))).reverse();
    for (const task of finished) if (take(task, runsOf(working.state.runs, task.id))) return page;
    for await (const record of this.visibleNewestFirst(working)) if (take(record.task, record.runs)) return page;
    return page;
  }

  /** Applies `change` to the latest state under the lock and writes what changed (unless it changed nothing). */
  update<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.locked(() => this.applyWhole(change));
  }

  /**
   * `update` on a draft of the working set alone (no history read, nothing of it composed or compared): for changes to
   * unfinished tasks. A change that looks up what the working set lacks (HistoryNeeded) runs again on the whole state.
   */
  updateWorking<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.locked(async () => {
      const working = await this.refreshWorking();
      // A file from before the samples: the whole update computes them once.
      if (working.samples === undefined) return this.applyWhole(change);
      const draft = JSON.parse(working.json) as ProjectState;
      markWorkingOnly(draft, { samples: working.samples }, true);
      let result: T;
      try {
        result = change(draft, filesLeaseView(this.repoRoot));
      } catch (error) {
        if (error instanceof HistoryNeeded) return this.applyWhole(change);
        throw error;
      }
      // Nothing of the history in the draft: the finished tasks beyond the newest leave it, nothing else is written.
      const split = splitState(draft, NO_HISTORY, NO_HISTORY.view(new Set()), false);
      const finished = split.records.flatMap((r) => ('task' in r ? r.runs : []));
      await this.commit(working, draft, split, appendSamples(working.samples, finished));
      return result;
    });
  }

  private async applyWhole<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    const working = await this.refreshWorking();
    await this.refreshIndex(working.mark);
    const leases = filesLeaseView(this.repoRoot);
    let draft = this.compose(working);
    let thawed = false;
    let result: T;
    try {
      result = change(draft, leases);
    } catch (error) {
      if (!writesFrozen(error)) throw error;
      // The change writes to a finished task of the history (a retry): run it again on copies of everything.
      thawed = true;
      draft = structuredClone(this.compose(working));
      result = change(draft, leases);
    }
    const view = this.index.view(working.ids);
    const split = splitState(draft, this.index, view, thawed);
    // Appended records only add the newest samples; a removal, a record written again, or a task back from the history
    // changes which runs the history shows where, so its samples are taken again from the history as it will be.
    const appended = split.records.flatMap((r) => ('task' in r ? r.runs : []));
    const reshaped =
      thawed || working.samples === undefined || split.records.some((r) => 'removed' in r || view.ids.has(r.task.id));
    const samples = reshaped ? undefined : appendSamples(working.samples!, appended);
    await this.commit(working, draft, split, samples);
    return result;
  }

  /**
   * Writes a change's split (unless it changed nothing): the history records appended, then `state.json` naming the
   * new history mark, with the history's lane cost samples (`samples`, or taken from the history in memory).
   */
  private async commit(
    working: Working,
    draft: ProjectState,
    split: Split,
    samples: HistorySamples | undefined,
  ): Promise<void> {
    const revision = (working.state.revision ?? 0) + 1;
    // Only the tasks and runs that differ from the last valid working set are validated again.
    const checked = this.valid.check({ ...split.working, revision });
    if (!checked.success) throw invalid(describeZodError(checked.error));
    // Nothing changed (the memo compared the texts of what it validated): nothing is written, the revision stays
    // (watchers are not woken for nothing).
    if (!split.records.length && !this.valid.changed && samples !== undefined) return;
    try {
      await this.write(working, draft, split, samples, checked.data, revision);
    } catch (error) {
      // The memo holds what was not written: it compares with the file's state again.
      this.valid.remember(working.state);
      throw error;
    }
  }

  private async write(
    working: Working,
    draft: ProjectState,
    split: Split,
    samples: HistorySamples | undefined,
    valid: ProjectState,
    revision: number,
  ): Promise<void> {
    for (const record of split.records) {
      if (!('task' in record)) continue;
      const parsed = Task.safeParse(record.task);
      const runs = z.array(Run).safeParse(record.runs);
      if (!parsed.success) throw invalid(`task ${record.task.id}: ${describeZodError(parsed.error)}`);
      if (!runs.success) throw invalid(`runs of ${record.task.id}: ${describeZodError(runs.error)}`);
      record.task = parsed.data;
      record.runs = runs.data;
    }
    const mark = await this.history.append(working.mark, split.records);
    // Cached as a reader would find them on disk (JSON drops undefined members), when the index is up to date.
    const indexed = this.indexLoaded && compareMarks(this.index.mark, working.mark) === 0;
    if (indexed)
      this.index.apply(
        split.records.map((r) => JSON.parse(JSON.stringify(r))),
        mark,
      );
    const kept =
      samples ?? (indexed ? historySamples(this.index.view(new Set(valid.tasks.map((t) => t.id))).runs) : undefined);
    const text = await this.writeState({
      ...valid,
      version: STATE_FILE_VERSION,
      history: mark,
      ...(kept ? { historySamples: kept as Record<string, number[]> } : {}),
    });
    const hold = currentHold(this.lockPath);
    const { history: _mark, historySamples: storedSamples, ...stored } = JSON.parse(text) as StateFile;
    // Under the lock, the file is the one just renamed into place: its stamp names these bytes.
    const stamp = stampOf(this.file);
    const state = { ...stored, version: STATE_VERSION } as ProjectState;
    this.working = workingOf(Buffer.from(text), stamp, state, mark, storedSamples, true);
    this.working.held = hold && { hold, writes: hold.writes };
    draft.revision = revision;
  }

  /**
   * Writes `state.json` (under the lock), counting the write in this process's hold of the lock: copies read before it
   * are then old (see `refreshWorking`). The text written.
   */
  private async writeState(file: StateFile): Promise<string> {
    const text = await this.json.write(file);
    const hold = currentHold(this.lockPath);
    if (hold) hold.writes++;
    return text;
  }

  /** Runs `fn` under the store's lock without touching the state (leases use it). */
  withLock<T>(fn: () => T): Promise<T> {
    return this.locked(async () => fn());
  }

  private compose(working: Working): ProjectState {
    const view = this.index.view(working.ids);
    const state = JSON.parse(working.json) as ProjectState;
    state.tasks = view.tasks.concat(state.tasks);
    state.runs = view.runs.concat(state.runs);
    markSharedPrefix(state.tasks, view.tasks);
    markSharedPrefix(state.runs, view.runs);
    return state;
  }

  /**
   * `state.json`: not read again while its stamp (inode, size, times) is unchanged and trusted, and parsed and
   * validated again only when its bytes changed since the last look.
   */
  private async refreshWorking(): Promise<Working> {
    // While this process holds the lock, only it writes the file: a copy read or written under the same hold, with no
    // write since, is the file (no stat, no read).
    const hold = currentHold(this.lockPath);
    const seen = hold && { hold, writes: hold.writes };
    if (seen && this.working?.held?.hold === hold && this.working.held.writes === hold.writes) return this.working;
    const stamp = stampOf(this.file);
    if (this.working?.stamp.trusted && stamp.key !== 'missing' && this.working.stamp.key === stamp.key) {
      this.working.held = seen;
      return this.working;
    }
    let bytes: Buffer;
    try {
      // Read synchronously: the working set is small, and a drain reads it several times a task, each a look at bytes
      // in the page cache; through the thread pool the same read costs 4 round trips and several times the CPU.
      bytes = readFileSync(this.file);
    } catch (error) {
      throw new SwitchyardError('store-corrupt', `cannot read ${this.file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (this.working && bytes.equals(this.working.bytes)) {
      this.working.stamp = stamp;
      this.working.held = seen;
      return this.working;
    }
    const file = await this.json.decode(bytes);
    if (file.history === undefined)
      throw new SwitchyardError(
        'store-corrupt',
        `${this.file} was replaced by a state file without a history mark; reopen the project to migrate it`,
      );
    const { history, historySamples: samples, ...state } = file;
    this.working = workingOf(bytes, stamp, { ...state, version: STATE_VERSION }, history, samples);
    this.working.held = seen;
    this.valid.remember(this.working.state);
    return this.working;
  }

  /** The history in memory up to `mark`: everything on first use, then only what was appended. */
  private async refreshIndex(mark: HistoryMark): Promise<void> {
    if (this.indexLoaded && compareMarks(this.index.mark, mark) === 0) return;
    if (!this.indexLoaded || compareMarks(this.index.mark, mark) > 0) {
      this.index.clear();
      this.index.apply(await this.history.readRange(EMPTY_HISTORY, mark), mark);
      this.indexLoaded = true;
      return;
    }
    this.index.apply(await this.history.readRange(this.index.mark, mark), mark);
  }

  /**
   * Splits a `state.json` from before the history: a copy of it is kept first, the finished tasks beyond the
   * newest are appended to the history, and the new `state.json` is the commit. A crash at any point leaves the old
   * file in place, and the next open does it all again (the append starts over from the empty mark).
   */
  private async migrate(): Promise<void> {
    const file = await this.json.read();
    if (!file || file.history !== undefined) return;
    await keepMigrationBackup(this.file);
    const { history: _none, ...state } = file;
    const empty = new HistoryIndex();
    const split = splitState({ ...state, version: STATE_VERSION }, empty, empty.view(new Set()), false);
    const mark = await this.history.append(EMPTY_HISTORY, split.records);
    await this.writeState({ ...split.working, version: STATE_FILE_VERSION, history: mark });
  }

  /**
   * Runs `fn` holding the state lock. Callers in this process take turns for it first, and hand it on while others
   * wait (see withFileLock); only other processes contend for the lock file.
   */
  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.lockPath, this.lockOptions, fn);
  }
}

/** An empty history, never added to: what a working-set-only draft is split against. */
const NO_HISTORY = new HistoryIndex();

/** A stamp that proves nothing: the next read reads the file. */
const UNTRUSTED: FileStamp = { key: '', trusted: false };

/** The file's stamp, or one that proves nothing when it cannot be taken (the read then reports what is wrong). */
function stampOf(file: string): FileStamp {
  try {
    return fileStamp(file);
  } catch {
    return UNTRUSTED;
  }
}

/** `parsed`: `state` is already JSON values (parsed from the text just written). */
function workingOf(
  bytes: Buffer,
  stamp: FileStamp,
  state: ProjectState,
  mark: HistoryMark,
  samples: HistorySamples | undefined,
  parsed = false,
): Working {
  // Kept as its JSON values (what a reader of the file gets), so every copy parsed from `json` equals it.
  const json = JSON.stringify(state);
  const canonical = parsed ? state : (JSON.parse(json) as ProjectState);
  const ids = new Set(canonical.tasks.map((t) => t.id));
  return { bytes, stamp, state: canonical, json, ids, mark, samples };
}

function runsOf(runs: readonly Run[], taskId: string): Run[] {
  return runs.filter((r) => r.taskId === taskId);
}

/** The TypeError of a write to a frozen object (strict mode): a change reaching into the shared history. */
function writesFrozen(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /read only property|read-only|not extensible|Cannot delete property|Cannot add property/i.test(error.message)
  );
}

function invalid(detail: string): SwitchyardError {
  return new SwitchyardError('invalid-input', `refusing to store an invalid state: ${detail}`);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
