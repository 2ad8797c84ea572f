import { z } from 'zod';
import { SwitchyardError } from '../../errors';
import { Run } from '../../model/run';
import { Task } from '../../model/task';
import { describeZodError } from '../../model/zodIssues';
import { ProjectState } from '../../store/projectState';
import type { FinishedPage, ListFinishedOptions } from '../stateStore';
import type { Queryable } from './pgConnection';

/** The finished task states, as the partial indexes of migration 3 name them. */
const FINISHED = `('DONE', 'FAILED', 'CANCELED')`;

const Head = ProjectState.omit({ tasks: true, runs: true });

/**
 * The working set straight from the tables (the tasks not finished and their runs, through the partial index on
 * unfinished tasks and the runs' task index): what `status` shows, without reading every finished row.
 */
export async function readPgWorking(q: Queryable, project: string): Promise<ProjectState> {
  const { rows } = await q.query(
    `SELECT p.version, p.settings, p.next_task_number, p.revision::float8 AS revision, p.breakers, p.routing,
       (SELECT json_agg(t.doc ORDER BY t.position) FROM sy_tasks t
          WHERE t.project = p.project AND t.state NOT IN ${FINISHED}) AS tasks,
       (SELECT json_agg(r.doc ORDER BY r.position) FROM sy_runs r
          WHERE r.project = p.project AND r.task_id IN (SELECT t.id FROM sy_tasks t
            WHERE t.project = p.project AND t.state NOT IN ${FINISHED})) AS runs
     FROM sy_projects p WHERE p.project = $1`,
    [project],
  );
  const row = rows[0];
  if (!row)
    throw new SwitchyardError('store-corrupt', `project "${project}" is missing from the database (sy_projects)`);
  const head = Head.safeParse({
    version: row.version,
    settings: row.settings,
    nextTaskNumber: row.next_task_number,
    revision: row.revision,
    breakers: row.breakers,
    routing: row.routing,
  });
  if (!head.success) throw corrupt(project, 'sy_projects', describeZodError(head.error));
  return {
    ...head.data,
    tasks: parseRows(Task, row.tasks, project, 'sy_tasks'),
    runs: parseRows(Run, row.runs, project, 'sy_runs'),
  };
}

/** A page of finished tasks, newest (highest position) first, through the partial index on finished tasks. */
export async function listPgFinished(
  q: Queryable,
  project: string,
  options: ListFinishedOptions,
): Promise<FinishedPage> {
  const { rows } = await q.query(
    `SELECT t.doc, (SELECT json_agg(r.doc ORDER BY r.position) FROM sy_runs r
         WHERE r.project = t.project AND r.task_id = t.id) AS runs
       FROM sy_tasks t
      WHERE t.project = $1 AND t.state IN ${FINISHED}
        AND ($2::text IS NULL OR t.position < (SELECT b.position FROM sy_tasks b WHERE b.project = $1 AND b.id = $2))
      ORDER BY t.position DESC LIMIT $3`,
    [project, options.before ?? null, options.limit + 1],
  );
  const page: FinishedPage = { tasks: [], runs: [] };
  for (const row of rows.slice(0, options.limit)) {
    page.tasks.push(parseRows(Task, [row.doc], project, 'sy_tasks')[0]!);
    page.runs.push(...parseRows(Run, row.runs, project, 'sy_runs'));
  }
  if (rows.length > options.limit) page.next = page.tasks[page.tasks.length - 1]!.id;
  return page;
}

function parseRows<T>(schema: z.ZodType<T>, docs: unknown, project: string, table: string): T[] {
  const parsed = z.array(schema).safeParse(docs ?? []);
  if (!parsed.success) throw corrupt(project, table, describeZodError(parsed.error));
  return parsed.data;
}

function corrupt(project: string, table: string, detail: string): SwitchyardError {
  return new SwitchyardError(
    'store-corrupt',
    `${table} of project "${project}" does not match the expected shape: ${detail}`,
  );
}
