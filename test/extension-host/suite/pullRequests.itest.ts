import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Run } from '../../../src/core/model/run';
import type { Task } from '../../../src/core/model/task';
import type { OpenPullRequestResult } from '../../../src/ui/commands/openPullRequest';
import type { TasksTreeRow, TasksTreeView } from '../../../src/ui/commands/tasksTreeRows';
import { editState } from '../../helpers/editState';
import { pullRequest } from '../../helpers/pullRequestFixture';
import { untilValue } from '../../helpers/until';

// Runs in the shared window and repository (files run in name order). The pull-request record is written through
// the project's store, as the integration records it; the window sees it through its change feed. The task ends
// CANCELED, so later files do not meet an AWAITING_CI task. That the browser really shows the PR's page is the UI
// test's to see (test/ui/pullRequests.test.ts): here the window's answer is checked (the workbench's port proxy
// takes a 127.0.0.1 URL, and a page on any other host would wait for a person to confirm it).
const FAKE_TOKEN = 'ghp_ITESTfaketoken0123456789abcdefghijABCD';

describe('pull requests in VS Code (the Tasks tree, Open Pull Request, Set GitHub Token)', function () {
  this.timeout(120_000);
  let root: string;

  before(async () => {
    await vscode.extensions.getExtension('switchyard.switchyard')!.activate();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  it('Open Pull Request and Set GitHub Token are registered and contributed, with their menus', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of ['switchyard.openPullRequest', 'switchyard.setGitHubToken'])
      assert.ok(all.includes(id), `${id} is registered`);
    const contributes = vscode.extensions.getExtension('switchyard.switchyard')!.packageJSON.contributes as {
      commands: { command: string; title: string }[];
      menus: Record<string, { command: string; when?: string }[]>;
    };
    const title = (id: string) => contributes.commands.find((c) => c.command === id)?.title;
    assert.equal(title('switchyard.openPullRequest'), 'Open Pull Request');
    assert.equal(title('switchyard.setGitHubToken'), 'Set GitHub Token');
    const palette = contributes.menus.commandPalette!.find((m) => m.command === 'switchyard.openPullRequest');
    assert.equal(palette?.when, 'switchyard.hasPullRequest');
    const context = contributes.menus['view/item/context']!.filter((m) => m.command === 'switchyard.openPullRequest');
    assert.ok(
      context.some((m) => m.when?.includes('viewItem =~ /^task\\.[A-Z_]+\\.pr$/')),
      JSON.stringify(context),
    );
  });

  it('a task AWAITING_CI shows its PR and each required check in the tree; Open Pull Request opens it', async () => {
    // A page where the PR's URL points, so whatever the browser opens is answered on this machine.
    const server = createServer((_req: IncomingMessage, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>pull request</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const task = await exec<Task>('switchyard.newTask', { title: 'Export as CSV', spec: 'add the export' });
    const n = Number(task.id.slice(1));
    try {
      await recordPullRequest(task.id, pullRequest(n, {}, origin));
      const rows = await treeRowsWhere('the PR row under the task', (rows) => rows.some((r) => r.label === `PR #${n}`));
      const at = rows.findIndex((r) => r.label === `${task.id} · Export as CSV`);
      assert.ok(at >= 0, JSON.stringify(rows));
      assert.match(rows[at]!.description ?? '', new RegExp(`AWAITING_CI · PR #${n} open$`));
      assert.deepEqual(
        rows.slice(at + 1, at + 5).map((r) => [r.level, r.label, r.description]),
        [
          [2, `PR #${n}`, 'open · 1/3 checks passed, 1 pending, 1 not registered yet'],
          [3, 'build', 'success'],
          [3, 'unit tests', 'pending'],
          [3, 'lint', 'missing (not registered yet)'],
        ],
      );
      const state = rows.findIndex((r) => r.level === 0 && r.label === 'AWAITING_CI');
      assert.ok(state >= 0 && state < at, 'the task is under its AWAITING_CI state');

      const opened = await exec<OpenPullRequestResult>('switchyard.openPullRequest', task.id);
      assert.deepEqual(opened, { taskId: task.id, number: n, url: `${origin}/acme/widgets/pull/${n}`, opened: true });

      // The check fails on the head: its row says so, with GitHub's conclusion.
      await recordPullRequest(
        task.id,
        pullRequest(
          n,
          {
            checks: [
              { name: 'build', state: 'success' },
              { name: 'unit tests', state: 'failure', conclusion: 'timed_out' },
            ],
          },
          origin,
        ),
      );
      const failed = await treeRowsWhere('the failed check row', (rows) =>
        rows.some((r) => r.label === 'unit tests' && r.description === 'failure (timed_out)'),
      );
      assert.ok(failed.some((r) => r.label === `PR #${n}` && r.description === 'open · 1/2 checks passed, 1 failed'));

      await assert.rejects(
        exec('switchyard.openPullRequest', 't999'),
        /unknown task t999/,
        'an unknown task is an error, not a silent no-op',
      );
    } finally {
      await editState(root, (s) => {
        const t = s.tasks.find((x) => x.id === task.id)!;
        t.state = 'CANCELED';
        t.failureReason = 'canceled by the pull-request view test';
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('Set GitHub Token stores a token per host, refuses an empty one, clears it; the value is in no file', async () => {
    await assert.rejects(exec('switchyard.setGitHubToken', '   '), /the token must not be empty/);
    assert.deepEqual(await exec('switchyard.setGitHubToken', FAKE_TOKEN), { action: 'stored', host: 'github.com' });
    assert.deepEqual(await exec('switchyard.setGitHubToken', { token: FAKE_TOKEN, host: 'GHE.example.com' }), {
      action: 'stored',
      host: 'ghe.example.com',
    });
    assert.deepEqual(await exec('switchyard.setGitHubToken', { clear: true, host: 'ghe.example.com' }), {
      action: 'cleared',
      host: 'ghe.example.com',
    });
    assert.deepEqual(await exec('switchyard.setGitHubToken', { clear: true }), {
      action: 'cleared',
      host: 'github.com',
    });
    const dir = join(root, '.switchyard');
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    assert.ok(files.length > 0);
    assert.deepEqual(
      files.filter((f) => readFileSync(f, 'utf8').includes(FAKE_TOKEN)),
      [],
      'files that contain the token',
    );
  });

  async function recordPullRequest(taskId: string, record: ReturnType<typeof pullRequest>): Promise<void> {
    await editState(root, (s) => {
      const task = s.tasks.find((t) => t.id === taskId)!;
      const runId = `${taskId}.1`;
      task.state = 'AWAITING_CI';
      task.lastRunId = runId;
      s.runs = s.runs.filter((r) => r.id !== runId);
      s.runs.push(
        Run.parse({
          id: runId,
          taskId,
          lane: 'command',
          attempt: 1,
          generation: task.generation,
          state: 'SUCCEEDED',
          branch: record.head,
          worktree: join(root, '.switchyard', 'worktrees', runId),
          baseCommit: task.baseCommit,
          startedAt: new Date().toISOString(),
          pullRequest: record,
        }),
      );
    });
  }
});

async function treeRowsWhere(what: string, ok: (rows: TasksTreeRow[]) => boolean): Promise<TasksTreeRow[]> {
  return untilValue(
    what,
    async () => {
      const view = await exec<TasksTreeView>('switchyard.tasksTreeRows');
      return ok(view.rows) ? view.rows : undefined;
    },
    30_000,
    200,
  );
}

function exec<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));
}
