import { SwitchyardError } from '../../errors';
import type { PgConnection, Queryable } from './pgConnection';

/**
 * The schema, one versioned step at a time. Steps are only ever appended:
 * a released step never changes, so every database that applied it has the
 * same schema. Applied in order on start, each in its own transaction.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'projects, tasks, runs, leases, journal events',
    // line-length: data-table, a released migration step is never edited, not even to rewrap its SQL comments
    sql: `
CREATE TABLE sy_projects (
  project text PRIMARY KEY,
  version int NOT NULL,
  settings jsonb NOT NULL,
  next_task_number int NOT NULL,
  revision bigint NOT NULL,
  breakers jsonb NOT NULL,
  routing jsonb NOT NULL,
  -- Bumped when a task or run row is deleted, so readers with a cache reload everything.
  epoch int NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Which update wrote each revision: after a connection lost during COMMIT, a writer looks up whether its update landed.
CREATE TABLE sy_revisions (
  project text NOT NULL REFERENCES sy_projects ON DELETE CASCADE,
  revision bigint NOT NULL,
  update_id uuid NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project, revision)
);
CREATE TABLE sy_tasks (
  project text NOT NULL REFERENCES sy_projects ON DELETE CASCADE,
  id text NOT NULL,
  position int NOT NULL,
  state text NOT NULL,
  doc jsonb NOT NULL,
  rev bigint NOT NULL,
  PRIMARY KEY (project, id)
);
CREATE INDEX sy_tasks_rev ON sy_tasks (project, rev);
CREATE INDEX sy_tasks_state ON sy_tasks (project, state);
CREATE TABLE sy_runs (
  project text NOT NULL REFERENCES sy_projects ON DELETE CASCADE,
  id text NOT NULL,
  position int NOT NULL,
  task_id text NOT NULL,
  state text NOT NULL,
  doc jsonb NOT NULL,
  rev bigint NOT NULL,
  PRIMARY KEY (project, id)
);
CREATE INDEX sy_runs_rev ON sy_runs (project, rev);
CREATE TABLE sy_run_leases (
  project text NOT NULL REFERENCES sy_projects ON DELETE CASCADE,
  run_id text NOT NULL,
  owner text NOT NULL,
  heartbeat_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (project, run_id)
);
CREATE INDEX sy_run_leases_expiry ON sy_run_leases (project, expires_at);
-- One row per journal event, ordered per run by seq; the line is stored as written (already redacted) and validated on read.
CREATE TABLE sy_journal_events (
  project text NOT NULL REFERENCES sy_projects ON DELETE CASCADE,
  run_id text NOT NULL,
  seq int NOT NULL CHECK (seq > 0),
  event text NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project, run_id, seq)
);
CREATE FUNCTION sy_journal_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'switchyard journal events are append-only';
END $$;
CREATE TRIGGER sy_journal_events_append_only BEFORE UPDATE OR DELETE ON sy_journal_events
  FOR EACH ROW EXECUTE FUNCTION sy_journal_append_only();
`,
    // line-length: end
  },
  {
    version: 2,
    name: 'process groups recorded with run leases',
    sql: `ALTER TABLE sy_run_leases ADD COLUMN groups jsonb`,
  },
  {
    version: 3,
    name: 'indexes for the working set and the pages of finished tasks',
    sql: `
CREATE INDEX sy_tasks_finished ON sy_tasks (project, position) WHERE state IN ('DONE', 'FAILED', 'CANCELED');
CREATE INDEX sy_tasks_working ON sy_tasks (project, position) WHERE state NOT IN ('DONE', 'FAILED', 'CANCELED');
CREATE INDEX sy_runs_task ON sy_runs (project, task_id);
`,
  },
];

/** The advisory lock key that serializes schema changes between processes starting at once. */
const MIGRATION_LOCK = 7_461_001;

/**
 * Applies the steps this database has not applied yet, in order, under an
 * advisory lock so two processes starting together do not both apply one.
 * A database newer than this build is an error (update Switchyard).
 */
export async function applyMigrations(connection: PgConnection): Promise<{ applied: number[]; version: number }> {
  return connection.transaction(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q.query(
      `CREATE TABLE IF NOT EXISTS sy_schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await q.query<{ version: number }>('SELECT version FROM sy_schema_migrations')).rows.map((r) => r.version),
    );
    const newest = Math.max(0, ...done);
    const known = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    if (newest > known)
      throw new SwitchyardError(
        'backend-migrated',
        `the database's Switchyard schema is version ${newest}, newer than this build knows (${known}); update Switchyard`,
      );
    const applied: number[] = [];
    for (const step of MIGRATIONS) {
      if (done.has(step.version)) continue;
      await applyStep(q, step);
      applied.push(step.version);
    }
    return { applied, version: known };
  });
}

async function applyStep(q: Queryable, step: (typeof MIGRATIONS)[number]): Promise<void> {
  await q.query(step.sql);
  await q.query('INSERT INTO sy_schema_migrations (version, name) VALUES ($1, $2)', [step.version, step.name]);
}
