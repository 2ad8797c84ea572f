import { randomUUID } from 'node:crypto';
import { SwitchyardError } from '../../errors';
import { Run } from '../../model/run';
import { Task } from '../../model/task';
import { describeZodError } from '../../model/zodIssues';
import { ProjectState, emptyProjectState } from '../../store/projectState';
import type { FinishedPage, ListFinishedOptions, StateStore } from '../stateStore';
import { listPgFinished, readPgWorking } from './pgFinished';
import type { LeaseView } from '../../lease/leaseStore';
import type { PgConnection, Queryable } from './pgConnection';
import { PgLeaseView, type LeaseRow } from './pgLeaseView';

/** The channel every process LISTENs on; the payload names the project and its new revision. */
export const CHANGE_CHANNEL = 'switchyard_changes';

/** The extra column of the state read that carries the project's leases, with the time each has left. */
const LEASES_COLUMN = `, (SELECT json_agg(json_build_object(
           'runId', l.run_id, 'owner', l.owner, 'heartbeatAt', l.heartbeat_at, 'expiresAt', l.expires_at,
           'groups', l.groups, 'remainingMs', extract(epoch FROM l.expires_at - clock_timestamp()) * 1000))
         FROM sy_run_leases l WHERE l.project = p.project) AS leases`;

interface Row {
  id: string;
  position: number;
  doc: unknown;
}
interface Snapshot {
  revision: number;
  epoch: number;
  /** The project head (settings, counters, breakers, routing) as JSON, to tell whether it changed. */
  headJson: string;
  state: ProjectState;
  /** Each task's and run's JSON as last read or written, to write only what changed. */
  json: { tasks: Map<string, string>; runs: Map<string, string> };
}

/**
 * The project's state in tables: one row for settings and counters, one row
 * per task and per run (a JSON document plus the columns queries need).
 * Reads fetch only rows written since the revision this process last saw.
 * `update` runs under a transaction-scoped advisory lock per project: the
 * scheduler's claim needs one consistent view of every task's stage, the
 * WIP counts and the breakers, so claims are serialized per project (for
 * the milliseconds a claim takes), while lease heartbeats and journal
 * appends never take that lock.
 */
export class PgStateStore implements StateStore {
  private cache: Snapshot | undefined;
  private readonly lockKey: string;

  constructor(
    private readonly db: PgConnection,
    readonly project: string,
  ) {
    this.lockKey = `switchyard:${project}`;
  }

  /** Creates the project's row (an empty state) unless it exists. */
  async ensureProject(): Promise<void> {
    const empty = emptyProjectState();
    await this.db.query(
      `INSERT INTO sy_projects (project, version, settings, next_task_number, revision, breakers, routing) VALUES ($1, $2, $3, $4, 0, $5, $6) ON CONFLICT (project) DO NOTHING`,
      [
        this.project,
        empty.version,
        JSON.stringify(empty.settings),
        empty.nextTaskNumber,
        JSON.stringify(empty.breakers),
        JSON.stringify(empty.routing),
      ],
    );
  }

  async read(): Promise<ProjectState> {
    const snapshot = await this.load(this.db, false);
    return structuredClone(snapshot.state);
  }

  update<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.updateWith(change);
  }

  /** The whole state is the draft here (a transaction loads the project's rows either way). */
  updateWorking<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.updateWith(change);
  }

  /** The tasks with these ids, from one read of the project. */
  async findFinished(ids: Iterable<string>): Promise<Map<string, Task>> {
    const wanted = new Set(ids);
    const snapshot = await this.load(this.db, false);
    const found = new Map<string, Task>();
    for (const task of snapshot.state.tasks) if (wanted.has(task.id)) found.set(task.id, structuredClone(task));
    return found;
  }

  /** The unfinished tasks and their runs, read with the partial index (not every row of the project). */
  readWorking(): Promise<ProjectState> {
    return readPgWorking(this.db, this.project);
  }

  listFinished(options: ListFinishedOptions): Promise<FinishedPage> {
    return listPgFinished(this.db, this.project, options);
  }

  /**
   * `update`, with `alongside` run in the same transaction after the state
   * is written (the one-way migration writes the journals with it).
   */
  async updateWith<T>(
    change: (state: ProjectState, leases: LeaseView) => T,
    alongside?: (q: Queryable, state: ProjectState) => Promise<void>,
  ): Promise<T> {
    const updateId = randomUUID();
    let written: Snapshot | undefined;
    const result = await this.db.transaction(
      async (q) => {
        written = undefined;
        await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [this.lockKey]);
        const before = await this.load(q, true);
        const draft = structuredClone(before.state);
        const leases = new PgLeaseView(before.leases ?? []);
        const value = change(draft, leases);
        const prepared = prepare(before, draft);
        // Nothing changed: nothing is written and nobody is notified; the revision stays.
        if (!prepared && !leases.takes) return value;
        written = await this.write(q, before, prepared ?? prepare(before, draft, true)!, updateId);
        // The caller's draft carries the new revision, as the contract says.
        draft.revision = written.revision;
        await leases.flush(q, this.project);
        if (alongside) await alongside(q, before.state);
        return value;
      },
      async (q) =>
        (await q.query('SELECT 1 FROM sy_revisions WHERE project = $1 AND update_id = $2', [this.project, updateId]))
          .rowCount === 1,
    );
    if (written) this.cache = written;
    return result;
  }

  /**
   * Loads the state, fetching only the rows changed since the cached revision; `withLeases` also reads the project's
   * run leases.
   */
  private async load(q: Queryable, withLeases: boolean): Promise<Snapshot & { leases?: LeaseRow[] }> {
    const cached = this.cache;
    const since = cached ? cached.revision : -1;
    const { rows } = await q.query(
      `SELECT p.version, p.settings, p.next_task_number, p.revision::float8 AS revision, p.breakers, p.routing, p.epoch,
         (SELECT json_agg(json_build_object('id', t.id, 'position', t.position, 'doc', t.doc)) FROM sy_tasks t
            WHERE t.project = p.project AND (p.epoch <> $3 OR t.rev > $2)) AS tasks,
         (SELECT json_agg(json_build_object('id', r.id, 'position', r.position, 'doc', r.doc)) FROM sy_runs r
            WHERE r.project = p.project AND (p.epoch <> $3 OR r.rev > $2)) AS runs
         ${withLeases ? LEASES_COLUMN : ''}
       FROM sy_projects p WHERE p.project = $1`,
      [this.project, since, cached?.epoch ?? -1],
    );
    const row = rows[0];
    if (!row)
      throw new SwitchyardError(
        'store-corrupt',
        `project "${this.project}" is missing from the database (sy_projects)`,
      );
    const leases = withLeases ? ((row.leases ?? []) as LeaseRow[]) : undefined;
    if (cached && cached.revision === row.revision && cached.epoch === row.epoch) return { ...cached, leases };
    const full = !cached || cached.epoch !== row.epoch;
    const tasks = merge(
      full ? new Map() : cached.json.tasks,
      full ? [] : cached.state.tasks,
      (row.tasks ?? []) as Row[],
      Task,
      'sy_tasks',
      this.project,
    );
    const runs = merge(
      full ? new Map() : cached.json.runs,
      full ? [] : cached.state.runs,
      (row.runs ?? []) as Row[],
      Run,
      'sy_runs',
      this.project,
    );
    const head = Head.safeParse({
      version: row.version,
      settings: row.settings,
      nextTaskNumber: row.next_task_number,
      revision: row.revision,
      breakers: row.breakers,
      routing: row.routing,
    });
    if (!head.success)
      throw new SwitchyardError(
        'store-corrupt',
        `project "${this.project}" in sy_projects does not match the expected shape: ${describeZodError(head.error)}`,
      );
    const snapshot: Snapshot = {
      revision: row.revision,
      epoch: row.epoch,
      headJson: headJsonOf(head.data),
      state: { ...head.data, tasks: tasks.list, runs: runs.list },
      json: { tasks: tasks.json, runs: runs.json },
    };
    this.cache = snapshot;
    return { ...snapshot, leases };
  }

  /**
   * Writes the changed rows, the project row, the revision record and the
   * notification in one statement (one round trip under the project lock);
   * returns the new snapshot.
   */
  private async write(q: Queryable, before: Snapshot, next: Prepared, updateId: string): Promise<Snapshot> {
    const revision = before.revision + 1;
    const state: ProjectState = { ...next.head, revision, tasks: next.tasks.list, runs: next.runs.list };
    const epoch = before.epoch + (next.tasks.removed.length || next.runs.removed.length ? 1 : 0);
    const runTaskIds = next.runs.changed.map((c) => (state.runs[c.position] as Run).taskId);
    await q.query(
      `WITH upsert_tasks AS (
         INSERT INTO sy_tasks (project, id, position, state, doc, rev)
         SELECT $1, id, position, state, doc, $2
           FROM unnest($3::text[], $4::int[], $5::text[], $6::jsonb[]) AS x(id, position, state, doc)
         ON CONFLICT (project, id) DO UPDATE
           SET position = EXCLUDED.position, state = EXCLUDED.state, doc = EXCLUDED.doc, rev = EXCLUDED.rev),
       upsert_runs AS (
         INSERT INTO sy_runs (project, id, position, state, doc, rev, task_id)
         SELECT $1, id, position, state, doc, $2, task_id
           FROM unnest($7::text[], $8::int[], $9::text[], $10::jsonb[], $11::text[])
             AS x(id, position, state, doc, task_id)
         ON CONFLICT (project, id) DO UPDATE
           SET position = EXCLUDED.position, state = EXCLUDED.state, doc = EXCLUDED.doc, rev = EXCLUDED.rev),
       removed_tasks AS (DELETE FROM sy_tasks WHERE project = $1 AND id = ANY($12::text[])),
       removed_runs AS (DELETE FROM sy_runs WHERE project = $1 AND id = ANY($13::text[])),
       head AS (
         UPDATE sy_projects
           SET version = $14, settings = $15, next_task_number = $16, revision = $2, breakers = $17, routing = $18,
             epoch = $19, updated_at = now()
         WHERE project = $1),
       record AS (INSERT INTO sy_revisions (project, revision, update_id) VALUES ($1, $2, $20))
       SELECT pg_notify($21, $22)`,
      [
        this.project,
        revision,
        ...columns(next.tasks.changed),
        ...columns(next.runs.changed),
        runTaskIds,
        next.tasks.removed,
        next.runs.removed,
        state.version,
        JSON.stringify(state.settings),
        state.nextTaskNumber,
        JSON.stringify(state.breakers),
        JSON.stringify(state.routing),
        epoch,
        updateId,
        CHANGE_CHANNEL,
        JSON.stringify({ project: this.project, revision }),
      ],
    );
    // Keep the last 1,000 revisions: enough to answer "did my commit land" after any reconnect.
    if (revision % 500 === 0)
      await q.query('DELETE FROM sy_revisions WHERE project = $1 AND revision < $2', [this.project, revision - 1_000]);
    return { revision, epoch, headJson: next.headJson, state, json: { tasks: next.tasks.json, runs: next.runs.json } };
  }
}

const Head = ProjectState.omit({ tasks: true, runs: true });
type Head = Omit<ProjectState, 'tasks' | 'runs'>;

interface Prepared {
  head: Head;
  headJson: string;
  tasks: RowChanges<Task>;
  runs: RowChanges<Run>;
}

/**
 * What `change` did to the draft: the rows that differ from `before` (each
 * validated with its schema; unchanged rows were validated when read) and
 * the validated project head. Undefined when nothing changed, unless `force`.
 */
function prepare(before: Snapshot, draft: ProjectState, force = false): Prepared | undefined {
  const { tasks: draftTasks, runs: draftRuns, ...draftHead } = draft;
  const headJson = headJsonOf(draftHead);
  const tasks = diffRows(before.json.tasks, draftTasks, Task, 'task');
  const runs = diffRows(before.json.runs, draftRuns, Run, 'run');
  const same =
    headJson === before.headJson &&
    !tasks.changed.length &&
    !runs.changed.length &&
    !tasks.removed.length &&
    !runs.removed.length;
  if (same && !force) return undefined;
  const head = Head.safeParse({ ...draftHead, revision: before.revision });
  if (!head.success)
    throw new SwitchyardError('invalid-input', `refusing to store an invalid state: ${describeZodError(head.error)}`);
  return { head: head.data, headJson: headJsonOf(head.data), tasks, runs };
}

/** The head without its revision, as JSON: what tells whether an update changed it. */
function headJsonOf(head: Head): string {
  const { revision: _revision, ...rest } = head;
  return JSON.stringify(rest);
}

interface Changed {
  id: string;
  position: number;
  state: string;
  json: string;
}

interface RowChanges<T> {
  list: T[];
  changed: Changed[];
  removed: string[];
  json: Map<string, string>;
}

/**
 * The rows of `list` whose position or JSON differ from `previous`, validated with `schema`; and the ids that are gone.
 */
function diffRows<T extends { id: string; state: string }>(
  previous: Map<string, string>,
  list: readonly T[],
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } },
  what: string,
): RowChanges<T> {
  const json = new Map<string, string>();
  const changed: Changed[] = [];
  const out: T[] = [];
  list.forEach((item, position) => {
    // The position is part of the row: a moved item is written again.
    const key = `${position}:${JSON.stringify(item)}`;
    if (previous.get(item.id) === key) {
      json.set(item.id, key);
      out.push(item);
      return;
    }
    const parsed = schema.safeParse(item);
    if (!parsed.success)
      throw new SwitchyardError(
        'invalid-input',
        `refusing to store an invalid state: ${what} ${item.id}: ${describeZodError(parsed.error)}`,
      );
    const text = JSON.stringify(parsed.data);
    json.set(item.id, `${position}:${text}`);
    changed.push({ id: parsed.data.id, position, state: parsed.data.state, json: text });
    out.push(parsed.data);
  });
  const removed = [...previous.keys()].filter((id) => !json.has(id));
  return { list: out, changed, removed, json };
}

function columns(changed: readonly Changed[]): [string[], number[], string[], string[]] {
  return [
    changed.map((c) => c.id),
    changed.map((c) => c.position),
    changed.map((c) => c.state),
    changed.map((c) => c.json),
  ];
}

/** Applies fetched rows (validated one by one) to the cached list. */
function merge<T extends { id: string }>(
  json: Map<string, string>,
  list: readonly T[],
  rows: readonly Row[],
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } },
  table: string,
  project: string,
): { list: T[]; json: Map<string, string> } {
  if (!rows.length) return { list: [...list], json };
  const byId = new Map(list.map((item, position) => [item.id, { item, position }]));
  const nextJson = new Map(json);
  for (const row of rows) {
    const parsed = schema.safeParse(row.doc);
    if (!parsed.success)
      throw new SwitchyardError(
        'store-corrupt',
        `${table} row "${row.id}" of project "${project}" does not match the expected shape: ${describeZodError(parsed.error)}`,
      );
    byId.set(row.id, { item: parsed.data, position: row.position });
    nextJson.set(row.id, `${row.position}:${JSON.stringify(parsed.data)}`);
  }
  const sorted = [...byId.values()].sort((a, b) => a.position - b.position).map((e) => e.item);
  return { list: sorted, json: nextJson };
}
