import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { QueueSummary } from '../../../src/core/engine/drain/queueRunner';
import type { Task } from '../../../src/core/model/task';
import { git, readState, userGitStatus } from '../helpers/workspaceState';

// Check Out Branch on a DONE task in the real extension host: it refuses while a tracked file has uncommitted
// changes (HEAD stays, the change is kept), then moves HEAD to the run's branch switchyard/<task>/<n>. The
// workspace's branch is checked out again at the end, so the suites after this one start where they expect.

describe('Check Out Branch on a DONE task in VS Code', function () {
  let root: string;
  let original: { branch: string; head: string; status: string };
  let done: { task: Task; runId: string; branch: string; head: string };

  before(async function () {
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await vscode.extensions.getExtension('switchyard.switchyard')!.activate();
    original = {
      branch: git(root, 'rev-parse', '--abbrev-ref', 'HEAD'),
      head: git(root, 'rev-parse', 'HEAD'),
      status: userGitStatus(root),
    };
    const task = await exec<Task>('switchyard.newTask', {
      title: 'Check me out',
      spec: 'a line on the run branch',
      files: ['src/checkout.txt'],
      lane: 'command',
    });
    const summary = await exec<QueueSummary>('switchyard.runTask', task.id);
    const run = summary.runs.find((r) => r.taskId === task.id);
    assert.ok(run && run.state === 'SUCCEEDED', `the run succeeded: ${JSON.stringify(run)}`);
    const stored = readState(root).runs.find((r) => r.id === run.id) as unknown as { headCommit: string };
    done = { task, runId: run.id, branch: run.branch, head: stored.headCommit };
  });

  after(async function () {
    if (git(root, 'rev-parse', '--abbrev-ref', 'HEAD') !== original.branch) git(root, 'checkout', original.branch);
    assert.equal(git(root, 'rev-parse', 'HEAD'), original.head, "the workspace's branch is back where it was");
  });

  it('refuses while a tracked file has uncommitted changes, and HEAD does not move', async function () {
    const readme = join(root, 'README.md');
    const before = readFileSync(readme, 'utf8');
    writeFileSync(readme, `${before}work not yet committed\n`);
    try {
      await assert.rejects(
        exec('switchyard.checkOutBranch', done.task.id),
        new RegExp(`cannot check out ${done.branch}: uncommitted changes in README\\.md`),
      );
      assert.equal(readFileSync(readme, 'utf8'), `${before}work not yet committed\n`, 'the change is kept');
      assert.equal(git(root, 'rev-parse', '--abbrev-ref', 'HEAD'), original.branch, 'the branch did not change');
      assert.equal(git(root, 'rev-parse', 'HEAD'), original.head, 'HEAD did not move');
    } finally {
      writeFileSync(readme, before);
    }
  });

  it("moves HEAD to the run's branch switchyard/<task>/<n>", async function () {
    assert.match(done.branch, new RegExp(`^switchyard/${done.task.id}/\\d+$`));
    const branch = await exec<string>('switchyard.checkOutBranch', done.task.id);
    assert.equal(branch, done.branch);
    assert.equal(git(root, 'rev-parse', '--abbrev-ref', 'HEAD'), done.branch, 'the run branch is checked out');
    assert.equal(git(root, 'rev-parse', 'HEAD'), done.head, "HEAD is the run's commit");
    assert.equal(readFileSync(join(root, 'src', 'checkout.txt'), 'utf8'), 'a line on the run branch\n');

    git(root, 'checkout', original.branch);
    assert.equal(git(root, 'rev-parse', 'HEAD'), original.head);
    assert.ok(!existsSync(join(root, 'src', 'checkout.txt')), "the run's file left with its branch");
    assert.equal(userGitStatus(root), original.status, "the user's branch and files are as before");
  });
});

function exec<T>(command: string, ...args: unknown[]): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));
}
