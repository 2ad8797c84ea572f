import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import * as vscode from 'vscode';
import { untilValue } from '../../helpers/until';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { ProjectState } from '../../../src/core/store/projectState';
import { Project } from '../../../src/core/project/project';
import type { SetPostgresConnectionResult } from '../../../src/ui/commands/setPostgresConnection';
import type { TasksTreeView } from '../../../src/ui/commands/tasksTreeRows';

// Runs after extension.itest and before secrets.itest (files run in name
// order), in the same window and repository; it leaves the files backend
// selected and no connection string stored. The runner starts a throwaway
// PostgreSQL server and passes its URL as SWITCHYARD_TEST_PG_URL (never as
// SWITCHYARD_DATABASE_URL, which would change every other test's backend).

const PG_URL = process.env.SWITCHYARD_TEST_PG_URL;
const PROJECT_NAME = `itest-${process.pid}-${Date.now()}`;

describe('PostgreSQL backend in VS Code (settings, SecretStorage, LISTEN/NOTIFY)', function () {
  this.timeout(30_000);
  let root: string;
  let config: vscode.WorkspaceConfiguration;
  let original: { backend: unknown; project: unknown };
  let db: pg.Client | undefined;

  before(async function () {
    if (!PG_URL) {
      console.log(
        '    skipped: SWITCHYARD_TEST_PG_URL is not set (the runner starts PostgreSQL when its server binaries are installed)',
      );
      this.skip();
    }
    await vscode.extensions.getExtension('switchyard.switchyard')!.activate();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    config = vscode.workspace.getConfiguration('switchyard');
    original = {
      backend: config.inspect('backend')?.workspaceValue,
      project: config.inspect('project')?.workspaceValue,
    };
    db = new pg.Client({ connectionString: PG_URL });
    db.on('error', () => undefined);
    await db.connect();
    await exec('switchyard.setPostgresConnection', '');
    await config.update('project', PROJECT_NAME, vscode.ConfigurationTarget.Workspace);
  });

  it('switchyard.backend = postgres without a connection string: a clear error naming the fix, no fall back to files', async function () {
    if (process.env.SWITCHYARD_DATABASE_URL) this.skip(); // the environment supplies a connection string here
    const stateFile = join(root, '.switchyard', 'state.json');
    const before = fileStamp(stateFile);
    await config.update('backend', 'postgres', vscode.ConfigurationTarget.Workspace);

    const error = await eventually('switchyard.refresh to reject', async () => {
      try {
        await refresh();
        return undefined;
      } catch (e) {
        return e as Error;
      }
    });
    assert.match(
      error.message,
      /the backend is "postgres" but no connection string is set: run "Switchyard: Set PostgreSQL Connection String" or set SWITCHYARD_DATABASE_URL for VS Code/,
    );

    const tree = await exec<TasksTreeView>('switchyard.tasksTreeRows');
    assert.match(tree.message ?? '', /Set PostgreSQL Connection String/, 'the Tasks view says why and how to fix it');
    assert.deepEqual(tree.rows, [], 'no tasks are shown (the files backend was not opened instead)');
    assert.equal(tree.backend, undefined);
    assert.deepEqual(fileStamp(stateFile), before, `${stateFile} was neither created nor written by the failed open`);
  });

  it('Set PostgreSQL Connection String refuses a malformed string without echoing it, stores a good one, and the project opens on postgres', async function () {
    await config.update('backend', 'postgres', vscode.ConfigurationTarget.Workspace);
    const malformed = 'postgres://someone:NotShown-8e1f@';
    await assert.rejects(exec('switchyard.setPostgresConnection', malformed), (e: Error) => {
      assert.match(e.message, /the PostgreSQL connection string is not valid/);
      assert.ok(!e.message.includes('NotShown-8e1f'), `the error echoes the password: ${e.message}`);
      return true;
    });

    const password = decodeURIComponent(new URL(PG_URL!).password);
    const stored = await exec<SetPostgresConnectionResult>('switchyard.setPostgresConnection', PG_URL);
    assert.equal(stored.action, 'stored');
    assert.match(stored.server ?? '', /^[^:@]+@127\.0\.0\.1:\d+\/switchyard_test$/);
    assert.ok(!JSON.stringify(stored).includes(password), 'the answer carries no password');

    const state = await eventually('the project to open on PostgreSQL', async () => {
      try {
        return await refresh();
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(state.tasks, [], "a fresh project in the database (not the files backend's tasks)");
    const tree = await exec<TasksTreeView>('switchyard.tasksTreeRows');
    assert.equal(tree.backend?.kind, 'postgres');
    assert.match(tree.backend?.description ?? '', new RegExp(`project ${PROJECT_NAME}$`));
    assert.ok(!tree.backend!.description.includes(password), 'the description carries no password');
    const rows = await db!.query('select project from sy_projects where project = $1', [PROJECT_NAME]);
    assert.equal(rows.rowCount, 1, `the project row ${PROJECT_NAME} exists in the database`);
  });

  it('a task another machine adds shows up in the Tasks tree through LISTEN/NOTIFY, without a refresh', async function () {
    // The window's LISTEN connection is up (a notification sent before it would be lost).
    await eventually('the extension to LISTEN', async () => ((await listeners()) > 0 ? true : undefined));
    const other = await Project.open(root, {
      registry: new LaneRegistry(),
      backend: { kind: 'postgres', url: PG_URL!, project: PROJECT_NAME },
    });
    try {
      const sent = Date.now();
      const task = await other.tasks.add({ title: 'Added on another machine', spec: 'arrives by NOTIFY' });
      const row = await eventually(
        'the task in the Tasks tree',
        async () => {
          const tree = await exec<TasksTreeView>('switchyard.tasksTreeRows');
          return tree.rows.find((r) => r.level === 1 && r.label === `${task.id} · Added on another machine`);
        },
        5_000,
      );
      assert.match(row.description ?? '', /READY/);
      console.log(`      the tree showed ${task.id} ${Date.now() - sent} ms after another instance added it`);
    } finally {
      await other.close();
    }
  });

  after(async function () {
    if (!PG_URL) return;
    try {
      await config.update('backend', original.backend, vscode.ConfigurationTarget.Workspace);
      await config.update('project', original.project, vscode.ConfigurationTarget.Workspace);
      await exec('switchyard.setPostgresConnection', '');
      await eventually('the files backend to be open again', async () => {
        try {
          await refresh();
        } catch {
          return undefined;
        }
        const tree = await exec<TasksTreeView>('switchyard.tasksTreeRows');
        return tree.backend?.kind === 'files' ? true : undefined;
      });
      // Switching away closed the window's pool and its LISTEN connection.
      await eventually(
        'the extension to close its PostgreSQL connections',
        async () => ((await clientConnections()) === 0 ? true : undefined),
        10_000,
      );
    } finally {
      await db?.end().catch(() => undefined);
    }
  });

  /** Connections to the test database other than ours that are LISTENing. */
  async function listeners(): Promise<number> {
    const result = await db!.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN%'",
    );
    return result.rows[0]!.n;
  }

  /** Client connections to the test database other than ours. */
  async function clientConnections(): Promise<number> {
    const result = await db!.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'",
    );
    return result.rows[0]!.n;
  }
});

/** Polls `probe` every 50 ms until it returns a value; fails naming `what` after `timeoutMs`. */
function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  return untilValue(what, probe, timeoutMs, 50);
}

/** Size, mtime and content of a file, or null when it does not exist. */
function fileStamp(file: string): { mtimeMs: number; text: string } | null {
  if (!existsSync(file)) return null;
  return { mtimeMs: statSync(file).mtimeMs, text: readFileSync(file, 'utf8') };
}

/**
 * The state the views read now. With an argument, as a call with data: it
 * rejects with the reason the project cannot be read (from the palette it
 * only shows it).
 */
function refresh(): Promise<ProjectState> {
  return exec<ProjectState>('switchyard.refresh', {});
}

function exec<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));
}
