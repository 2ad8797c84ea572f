import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { QueueSummary } from '../../../src/core/engine/drain/queueRunner';
import type { Task } from '../../../src/core/model/task';
import type { MergeOutcome } from '../../../src/core/workspace/mergeIntoCurrentBranch';
import { git, readState, userGitStatus } from '../helpers/workspaceState';

// The DONE change in the real extension host: Show Run Diff opens VS Code's diff editor (asserted through the
// tab API), a run without a change opens nothing, Show Run Log has the lane's output, and Merge into Current Branch
// brings the change into the checked-out branch and refuses on uncommitted changes. The user's branch, HEAD and
// files are as before at the end (the merge goes into a scratch branch).

type MultiDiffInput = { textDiffs: readonly vscode.TabInputTextDiff[] };
const TabInputTextMultiDiff = (vscode as unknown as { TabInputTextMultiDiff?: new () => MultiDiffInput })
  .TabInputTextMultiDiff;

describe('a DONE change in VS Code: diff editor, run log, merge and check out', function () {
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
      title: 'Take me somewhere',
      spec: 'a line to merge',
      files: ['src/take.txt'],
      lane: 'command',
    });
    const summary = await exec<QueueSummary>('switchyard.runTask', task.id);
    const run = summary.runs.find((r) => r.taskId === task.id);
    assert.ok(run && run.state === 'SUCCEEDED', `the run succeeded: ${JSON.stringify(run)}`);
    const stored = readState(root).runs.find((r) => r.id === run.id) as unknown as { headCommit: string };
    done = { task, runId: run.id, branch: run.branch, head: stored.headCommit };
  });

  after(async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (git(root, 'rev-parse', '--abbrev-ref', 'HEAD') !== original.branch) git(root, 'checkout', original.branch);
    git(root, 'branch', '-D', 'itest-scratch');
  });

  it('Show Run Diff opens the multi-file diff editor: the base left, the run commit right', async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const diff = await exec<string>('switchyard.showRunDiff', done.runId);
    assert.match(diff, /^\+a line to merge$/m, 'the command still resolves to the diff text');
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(TabInputTextMultiDiff, 'VS Code 1.100 has the multi-file diff tab input');
    assert.ok(input instanceof TabInputTextMultiDiff, `the active tab is a multi-file diff, not ${String(input)}`);
    const [file] = input.textDiffs;
    assert.equal(input.textDiffs.length, 1);
    assert.ok(file instanceof vscode.TabInputTextDiff);
    assert.equal(file.original.scheme, 'switchyard-file');
    assert.equal(file.original.path, '/src/take.txt');
    assert.equal(file.modified.query, done.head, "the right side is the run's commit");
    const right = await vscode.workspace.openTextDocument(file.modified);
    const left = await vscode.workspace.openTextDocument(file.original);
    assert.equal(right.getText(), 'a line to merge\n');
    assert.equal(left.getText(), '', 'an added file is empty on the left');
  });

  it('a run that changed nothing says so and opens no editor', async function () {
    const config = vscode.workspace.getConfiguration('switchyard');
    const lanes = config.inspect<Record<string, unknown>>('lanes')?.workspaceValue;
    await config.update('lanes', { command: { command: 'true' } }, vscode.ConfigurationTarget.Workspace);
    try {
      const task = await exec<Task>('switchyard.newTask', { title: 'Change nothing', spec: 'noop', lane: 'command' });
      const summary = await exec<QueueSummary>('switchyard.runTask', task.id);
      const run = summary.runs.find((r) => r.taskId === task.id);
      assert.ok(run, 'the task ran');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const diff = await exec<string>('switchyard.showRunDiff', run.id);
      assert.equal(diff, '');
      assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, 0, 'no editor was opened');
    } finally {
      await config.update('lanes', lanes, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("Show Run Log gives the run's recorded lane output and decisions", async function () {
    const text = await exec<string>('switchyard.showRunLog', done.runId);
    assert.match(text, /\[stdout\] appendAgent: appended to src\/take\.txt/);
    assert.match(text, new RegExp(`— run ${done.runId.replace('.', '\\.')} started`));
  });

  it('Merge into Current Branch refuses on uncommitted changes and keeps them', async function () {
    git(root, 'checkout', '-b', 'itest-scratch');
    const readme = join(root, 'README.md');
    const before = readFileSync(readme, 'utf8');
    writeFileSync(readme, `${before}unsaved work\n`);
    try {
      await assert.rejects(
        exec('switchyard.mergeIntoCurrentBranch', done.task.id),
        /uncommitted changes in README\.md/,
      );
      assert.equal(readFileSync(readme, 'utf8'), `${before}unsaved work\n`, 'the uncommitted change is kept');
      assert.equal(git(root, 'rev-parse', 'HEAD'), original.head, 'HEAD did not move');
    } finally {
      writeFileSync(readme, before);
    }
  });

  it('Merge into Current Branch brings the change into the checked-out branch', async function () {
    const outcome = await exec<MergeOutcome>('switchyard.mergeIntoCurrentBranch', done.task.id);
    assert.equal(outcome.into, 'itest-scratch');
    assert.equal(outcome.upToDate, false);
    assert.equal(git(root, 'rev-parse', 'HEAD'), outcome.commit);
    assert.equal(readFileSync(join(root, 'src', 'take.txt'), 'utf8'), 'a line to merge\n');
    assert.equal(git(root, 'rev-parse', 'HEAD^'), original.head, 'one commit on the branch');
    assert.match(git(root, 'log', '-1', '--format=%B'), new RegExp(`Switchyard task ${done.task.id}, run `));
    git(root, 'checkout', original.branch);
    assert.equal(git(root, 'rev-parse', 'HEAD'), original.head);
    assert.equal(userGitStatus(root), original.status, "the user's branch and files are as before");
  });
});

function exec<T>(command: string, ...args: unknown[]): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));
}
