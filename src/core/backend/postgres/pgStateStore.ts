import { randomUUID } from 'node:crypto';
import { SwitchyardError } from '../../errors';
import { Run } from '../../model/run';
import { Task } from '../../model/task';
import { describeZodError } from '../../model/zodIssues';
import { ProjectState, emptyProjectState } from '../../store/projectState';
import type { StateStore } from '../stateStore';
import type { LeaseView } from '../leaseStore';
import type { PgConnection, Queryable } from './pgConnection';
import { PgLeaseView, type LeaseRow } from './pgLeaseView';

/** The channel every process LISTENs on; the payload names the project and its new revision. */
export const CHANGE_CHANNEL = 'switchyard_changes';

interface Row { id: string; position: number; doc: unknown }
interface Snapshot {
  revision: number;
  epoch: number;
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
      [this.project, empty.version, JSON.stringify(empty.settings), empty.nextTaskNumber, JSON.stringify(empty.breakers), JSON.stringify(empty.routing)],
    );
  }

  async read(): Promise<ProjectState> {
    const snapshot = await this.load(this.db, false);
    return structuredClone(snapshot.state);
  }

  update<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.updateWith(change);
  }

  /**
   * `update`, with `alongside` run in the same transaction after the state
   * is written (the one-way migration writes the journals with it).
   */
  async updateWith<T>(change: (state: ProjectState, leases: LeaseView) => T, alongside?: (q: Queryable, state: ProjectState) => Promise<void>): Promise<T> {
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
        // Nothing changed: nothing is written and nobody is notified; the revision stays.
        if (!leases.takes && JSON.stringify(draft) === JSON.stringify(before.state)) return value;
        draft.revision = before.revision + 1;
        const checked = ProjectState.safeParse(draft);
        if (!checked.success) throw new SwitchyardError('invalid-input', `refusing to store an invalid state: ${describeZodError(checked.error)}`);
        written = await this.write(q, before, checked.data, updateId);
        await leases.flush(q, this.project);
        if (alongside) await alongside(q, before.state);
        await q.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, JSON.stringify({ project: this.project, revision: written.revision })]);
        return value;
      },
      async (q) => (await q.query('SELECT 1 FROM sy_revisions WHERE project = $1 AND update_id = $2', [this.project, updateId])).rowCount === 1,
    );
    if (written) this.cache = written;
    return result;
  }

  /** Loads the state, fetching only the rows changed since the cached revision; `withLeases` also reads the project's run leases. */
  private async load(q: Queryable, withLeases: boolean): Promise<Snapshot & { leases?: LeaseRow[] }> {
    const cached = this.cache;
    const since = cached ? cached.revision : -1;
    const { rows } = await q.query(
      `SELECT p.version, p.settings, p.next_task_number, p.revision::float8 AS revision, p.breakers, p.routing, p.epoch,
         (SELECT json_agg(json_build_object('id', t.id, 'position', t.position, 'doc', t.doc)) FROM sy_tasks t
            WHERE t.project = p.project AND (p.epoch <> $3 OR t.rev > $2)) AS tasks,
         (SELECT json_agg(json_build_object('id', r.id, 'position', r.position, 'doc', r.doc)) FROM sy_runs r
            WHERE r.project = p.project AND (p.epoch <> $3 OR r.rev > $2)) AS runs
         ${withLeases ? `, (SELECT json_agg(json_build_object('runId', l.run_id, 'owner', l.owner, 'heartbeatAt', l.heartbeat_at, 'expiresAt', l.expires_at, 'remainingMs', extract(epoch FROM l.expires_at - clock_timestamp()) * 1000)) FROM sy_run_leases l WHERE l.project = p.project) AS leases` : ''}
       FROM sy_projects p WHERE p.project = $1`,
      [this.project, since, cached?.epoch ?? -1],
    );
    const row = rows[0];
    if (!row) throw new SwitchyardError('store-corrupt', `project "${this.project}" is missing from the database (sy_projects)`);
    const leases = withLeases ? ((row.leases ?? []) as LeaseRow[]) : undefined;
    if (cached && cached.revision === row.revision && cached.epoch === row.epoch) return { ...cached, leases };
    const full = !cached || cached.epoch !== row.epoch;
    const tasks = merge(full ? new Map() : cached.json.tasks, full ? [] : cached.state.tasks, (row.tasks ?? []) as Row[], Task, 'sy_tasks', this.project);
    const runs = merge(full ? new Map() : cached.json.runs, full ? [] : cached.state.runs, (row.runs ?? []) as Row[], Run, 'sy_runs', this.project);
    const head = ProjectState.omit({ tasks: true, runs: true }).safeParse({
      version: row.version, settings: row.settings, nextTaskNumber: row.next_task_number, revision: row.revision, breakers: row.breakers, routing: row.routing,
    });
    if (!head.success) throw new SwitchyardError('store-corrupt', `project "${this.project}" in sy_projects does not match the expected shape: ${describeZodError(head.error)}`);
    const snapshot: Snapshot = { revision: row.revision, epoch: row.epoch, state: { ...head.data, tasks: tasks.list, runs: runs.list }, json: { tasks: tasks.json, runs: runs.json } };
    this.cache = snapshot;
    return { ...snapshot, leases };
  }

  /** Writes the rows that differ from `before`, the project row and the revision record; returns the new snapshot. */
  private async write(q: Queryable, before: Snapshot, state: ProjectState, updateId: string): Promise<Snapshot> {
    const revision = state.revision;
    const tasks = diffRows(before.json.tasks, state.tasks, (t) => t.state);
    const runs = diffRows(before.json.runs, state.runs, (r) => r.state);
    const epoch = before.epoch + (tasks.removed.length || runs.removed.length ? 1 : 0);
    if (tasks.changed.length) {
      await q.query(
        `INSERT INTO sy_tasks (project, id, position, state, doc, rev)
         SELECT $1, id, position, state, doc, $6 FROM unnest($2::text[], $3::int[], $4::text[], $5::jsonb[]) AS x(id, position, state, doc)
         ON CONFLICT (project, id) DO UPDATE SET position = EXCLUDED.position, state = EXCLUDED.state, doc = EXCLUDED.doc, rev = EXCLUDED.rev`,
        [this.project, ...columns(tasks.changed), revision],
      );
    }
    if (runs.changed.length) {
      const taskIds = runs.changed.map((c) => (state.runs[c.position] as Run).taskId);
      await q.query(
        `INSERT INTO sy_runs (project, id, position, state, doc, rev, task_id)
         SELECT $1, id, position, state, doc, $6, task_id FROM unnest($2::text[], $3::int[], $4::text[], $5::jsonb[], $7::text[]) AS x(id, position, state, doc, task_id)
         ON CONFLICT (project, id) DO UPDATE SET position = EXCLUDED.position, state = EXCLUDED.state, doc = EXCLUDED.doc, rev = EXCLUDED.rev`,
        [this.project, ...columns(runs.changed), revision, taskIds],
      );
    }
    if (tasks.removed.length) await q.query('DELETE FROM sy_tasks WHERE project = $1 AND id = ANY($2::text[])', [this.project, tasks.removed]);
    if (runs.removed.length) await q.query('DELETE FROM sy_runs WHERE project = $1 AND id = ANY($2::text[])', [this.project, runs.removed]);
    await q.query(
      `UPDATE sy_projects SET version = $2, settings = $3, next_task_number = $4, revision = $5, breakers = $6, routing = $7, epoch = $8, updated_at = now() WHERE project = $1`,
      [this.project, state.version, JSON.stringify(state.settings), state.nextTaskNumber, revision, JSON.stringify(state.breakers), JSON.stringify(state.routing), epoch],
    );
    await q.query('INSERT INTO sy_revisions (project, revision, update_id) VALUES ($1, $2, $3)', [this.project, revision, updateId]);
    // Keep the last 1,000 revisions: enough to answer "did my commit land" after any reconnect.
    if (revision % 500 === 0) await q.query('DELETE FROM sy_revisions WHERE project = $1 AND revision < $2', [this.project, revision - 1_000]);
    return { revision, epoch, state, json: { tasks: tasks.json, runs: runs.json } };
  }
}

interface Changed { id: string; position: number; state: string; json: string }

function diffRows<T extends { id: string }>(previous: Map<string, string>, list: readonly T[], stateOf: (item: T) => string): { changed: Changed[]; removed: string[]; json: Map<string, string> } {
  const json = new Map<string, string>();
  const changed: Changed[] = [];
  list.forEach((item, position) => {
    const text = JSON.stringify(item);
    // The position is part of the row: a moved item is written again.
    const key = `${position}:${text}`;
    if (previous.get(item.id) !== key) changed.push({ id: item.id, position, state: stateOf(item), json: text });
    json.set(item.id, key);
  });
  const removed = [...previous.keys()].filter((id) => !json.has(id));
  return { changed, removed, json };
}

function columns(changed: readonly Changed[]): [string[], number[], string[], string[]] {
  return [changed.map((c) => c.id), changed.map((c) => c.position), changed.map((c) => c.state), changed.map((c) => c.json)];
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
    if (!parsed.success) throw new SwitchyardError('store-corrupt', `${table} row "${row.id}" of project "${project}" does not match the expected shape: ${describeZodError(parsed.error)}`);
    byId.set(row.id, { item: parsed.data, position: row.position });
    nextJson.set(row.id, `${row.position}:${JSON.stringify(parsed.data)}`);
  }
  const sorted = [...byId.values()].sort((a, b) => a.position - b.position).map((e) => e.item);
  return { list: sorted, json: nextJson };
}
