import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SwitchyardError } from '../../errors';
import { leasePath, journalPath } from '../../journal/journalFiles';
import { readJournal } from '../../journal/journalReader';
import { leaseIsFree, readLeaseSync } from '../../lease/leaseFile';
import { ProjectStore } from '../projectStore';
import { STATE_DIR } from '../../store/stateDir';
import { migratedMarkerPath, readMigratedMarker, writeMigratedMarker } from '../migratedMarker';
import type { PostgresBackend } from './postgresBackend';

export interface MigrationReport {
  target: string;
  project: string;
  tasks: number;
  runs: number;
  /** Runs with a journal, and their events. */
  journals: number;
  events: number;
  warnings: string[];
}

/**
 * Copies a project's files backend (state.json and every run's journal)
 * into an empty project in PostgreSQL, in one transaction, reads it back
 * and compares, then marks the files backend as migrated so it refuses to
 * open (one way: nothing is ever copied back). Refuses while a live process
 * holds a run (stop windows and `switchyard run` first). Run logs, diffs,
 * the trace and guard records stay in `.switchyard/` where they are.
 */
export async function migrateFilesToPostgres(root: string, target: PostgresBackend): Promise<MigrationReport> {
  if (await readMigratedMarker(root))
    throw new SwitchyardError('backend-migrated', `${migratedMarkerPath(root)} says this project was migrated already`);
  const stateFile = join(root, STATE_DIR, 'state.json');
  if (!existsSync(stateFile))
    throw new SwitchyardError('invalid-input', `${root} has no files backend to migrate (${stateFile} is missing)`);
  const source = await ProjectStore.open(root);
  const state = await source.read();
  const now = Date.now();
  const live = state.runs.filter(
    (r) =>
      r.state === 'RUNNING' &&
      !leaseIsFree(readLeaseSync(leasePath(root, r.id)), r.owner, r.startedAt, now, state.settings.leaseMs),
  );
  if (live.length) {
    throw new SwitchyardError(
      'lease-held',
      `run(s) ${live.map((r) => `${r.id} (${r.owner})`).join(', ')} are held by a live process: stop every window and \`switchyard run\` on this repository, then migrate`,
    );
  }
  const warnings: string[] = [];
  const journals: { runId: string; lines: string[] }[] = [];
  for (const run of state.runs) {
    const file = journalPath(root, run.id);
    const read = await readJournal(file);
    if (read.tornTail) warnings.push(`${file}:${read.tornTail.line}: torn last line (a crash mid-write) not copied`);
    if (read.events.length) journals.push({ runId: run.id, lines: read.events.map((e) => JSON.stringify(e)) });
  }
  const project = target.project;
  await target.state.updateWith(
    (draft) => {
      if (draft.tasks.length || draft.runs.length) {
        throw new SwitchyardError(
          'backend-config',
          `project "${project}" in ${target.db.description} already has ${draft.tasks.length} task(s) and ${draft.runs.length} run(s): the migration copies only into an empty project (pick another name with SWITCHYARD_PROJECT)`,
        );
      }
      Object.assign(draft, structuredClone(state), { revision: draft.revision });
    },
    async (q) => {
      const existing = await q.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sy_journal_events WHERE project = $1',
        [project],
      );
      if (existing.rows[0]!.n > 0)
        throw new SwitchyardError(
          'backend-config',
          `project "${project}" already has journal events in ${target.db.description}; the migration copies only into an empty project`,
        );
      for (const j of journals) {
        await q.query(
          'INSERT INTO sy_journal_events (project, run_id, seq, event) SELECT $1, $2, seq, event FROM unnest($3::int[], $4::text[]) AS x(seq, event)',
          [project, j.runId, j.lines.map((_, i) => i + 1), j.lines],
        );
      }
    },
  );
  // Read back through the backend (the same validation every reader uses) and compare with the source.
  const back = await target.state.read();
  if (
    !isDeepStrictEqual(back.tasks, state.tasks) ||
    !isDeepStrictEqual(back.runs, state.runs) ||
    !isDeepStrictEqual(back.settings, state.settings)
  ) {
    throw new SwitchyardError(
      'store-corrupt',
      `the copy in ${target.db.description} (project ${project}) differs from ${source.file}; the files backend was left in use`,
    );
  }
  let events = 0;
  for (const j of journals) {
    const read = await target.journals.read(j.runId);
    if (read.events.length !== j.lines.length)
      throw new SwitchyardError(
        'journal-corrupt',
        `${read.where}: ${read.events.length} events read back where ${j.lines.length} were copied`,
      );
    events += read.events.length;
  }
  await writeMigratedMarker(root, {
    to: 'postgres',
    target: target.db.description,
    project,
    at: new Date().toISOString(),
    tasks: state.tasks.length,
    runs: state.runs.length,
    events,
  });
  return {
    target: target.db.description,
    project,
    tasks: state.tasks.length,
    runs: state.runs.length,
    journals: journals.length,
    events,
    warnings,
  };
}
