import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { QueueSummary } from '../../../src/core/engine/drain/queueRunner';
import type { Task } from '../../../src/core/model/task';
import type { LanePlugin, SwitchyardExtension } from '../../../src/api';
import { ACTIVATION_MARKS } from '../../../src/ui/activationMarks';
import { git, readState, storedTask, userGitStatus, waitForFinalState } from '../helpers/workspaceState';

// Runs inside the real extension host (code-server or desktop VS Code) with
// the real `vscode` API, on the throwaway repository the runner opened
// (README.md and src/hello.txt committed; the `command` lane set to
// test/fixtures/appendAgent.mjs in .vscode/settings.json).

const EXTENSION_ID = 'switchyard.switchyard';

describe('Switchyard in a real extension host', function () {
  let root: string;
  let extension: vscode.Extension<SwitchyardExtension>;
  let baseline: { status: string; head: string; branch: string; hello: string; readme: string };

  before(function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the runner opens the test repository as the workspace folder');
    root = folder.uri.fsPath;
    baseline = {
      status: userGitStatus(root),
      head: git(root, 'rev-parse', 'HEAD'),
      branch: git(root, 'rev-parse', '--abbrev-ref', 'HEAD'),
      hello: readFileSync(join(root, 'src', 'hello.txt'), 'utf8'),
      readme: readFileSync(join(root, 'README.md'), 'utf8'),
    };
  });

  it('is present, inactive until used, activates, and its commands then run', async function () {
    const found = vscode.extensions.getExtension<SwitchyardExtension>(EXTENSION_ID);
    assert.ok(found, `extension ${EXTENSION_ID} is installed in the host`);
    extension = found;
    assert.equal(
      extension.isActive,
      false,
      'nothing activated Switchyard before the suite (its Tasks view is not open in a fresh profile)',
    );
    const started = performance.now();
    const api = await extension.activate();
    const activateMs = performance.now() - started;
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.getAPI, 'function', 'activate() resolves to the public API');
    const commandStarted = performance.now();
    await vscode.commands.executeCommand('switchyard.refresh');
    const firstCommandMs = performance.now() - commandStarted;
    writeActivationReport({ started, activateMs, firstCommandMs });
  });

  it('registers every command contributed in package.json', async function () {
    const contributed = (
      extension.packageJSON as { contributes: { commands: { command: string }[] } }
    ).contributes.commands.map((c) => c.command);
    assert.ok(contributed.length >= 12, `package.json contributes the commands (found ${contributed.length})`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it("hides run worktrees and run files from the Explorer, search and the file watcher; VS Code's own excludes stay", async function () {
    const files = vscode.workspace.getConfiguration('files');
    const exclude = files.get<Record<string, boolean>>('exclude') ?? {};
    for (const glob of ['**/.switchyard/worktrees', '**/.switchyard/runs', '**/.switchyard/setup-cache'])
      assert.equal(exclude[glob], true, `files.exclude hides ${glob}`);
    assert.equal(exclude['**/.git'], true, "VS Code's default excludes are merged, not replaced");
    const watcher = files.get<Record<string, boolean>>('watcherExclude') ?? {};
    assert.equal(watcher['**/.switchyard/worktrees/**'], true, 'no file watcher over the run worktrees');
    // What the Explorer and Quick Open list: a file in a run worktree is not among them, the project config is.
    const inWorktree = join(root, '.switchyard', 'worktrees', 't0.1', 'copy-of-hello.txt');
    mkdirSync(join(root, '.switchyard', 'worktrees', 't0.1'), { recursive: true });
    writeFileSync(inWorktree, 'a run worktree file\n');
    try {
      const found = (await vscode.workspace.findFiles('**/*.txt')).map((u) => u.fsPath);
      assert.ok(found.includes(join(root, 'src', 'hello.txt')), found.join(', '));
      assert.ok(!found.includes(inWorktree), `a worktree file is hidden: ${found.join(', ')}`);
    } finally {
      rmSync(join(root, '.switchyard', 'worktrees', 't0.1'), { recursive: true, force: true });
    }
  });

  let created: Task;

  it('switchyard.newTask creates a READY task that appears in .switchyard/state.json', async function () {
    created = await exec<Task>('switchyard.newTask', {
      title: 'Append to hello',
      spec: 'appended by the newTask test',
      files: ['src/hello.txt'],
      lane: 'command',
    });
    assert.match(created.id, /^t\d+$/);
    assert.equal(created.state, 'READY');
    const stored = storedTask(root, created.id);
    assert.equal(stored.state, 'READY');
    assert.equal(stored.spec.title, 'Append to hello');
    assert.deepEqual(stored.spec.files, ['src/hello.txt']);
  });

  it('switchyard.runQueue runs it on the command lane to DONE; showRunDiff shows the change', async function () {
    const summary = await exec<QueueSummary>('switchyard.runQueue');
    const run = summary.runs.find((r) => r.taskId === created.id);
    assert.ok(run, `the queue ran ${created.id}; runs: ${summary.runs.map((r) => `${r.id}=${r.state}`).join(', ')}`);
    assert.equal(run.id, `${created.id}.1`);
    assert.equal(run.lane, 'command');
    assert.equal(run.state, 'SUCCEEDED', `run ${run.id} failed: ${run.failureReason ?? ''}`);

    const state = readState(root);
    assert.equal(state.tasks.find((t) => t.id === created.id)?.state, 'DONE');
    assert.equal(state.runs.find((r) => r.id === run.id)?.state, 'SUCCEEDED');

    const diff = await exec<string>('switchyard.showRunDiff', run.id);
    assert.match(diff, /^diff --git a\/src\/hello\.txt b\/src\/hello\.txt$/m);
    assert.match(diff, /^\+appended by the newTask test$/m);
    assert.equal(
      `${git(root, 'show', `${run.branch}:src/hello.txt`)}\n`,
      `${baseline.hello}appended by the newTask test\n`,
      "the change is on the run's branch",
    );
    assert.equal(existsSync(run.worktree), false, 'the worktree of the integrated run was removed');
  });

  it('switchyard.sendToLane(uri, {lane, instruction}) makes a DONE task whose diff touches that file', async function () {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'README.md');
    const instruction = 'Document the send-to-lane flow';
    const task = await exec<Task>('switchyard.sendToLane', uri, { lane: 'command', instruction });
    assert.match(task.id, /^t\d+$/);
    assert.equal(task.spec.lane, 'command');
    assert.deepEqual(task.spec.files, ['README.md']);

    const done = await waitForFinalState(root, task.id);
    assert.equal(done.state, 'DONE', `task ${task.id} ended ${done.state}: ${done.failureReason ?? ''}`);
    assert.ok(done.lastRunId, 'the DONE task names its run');
    const diff = await exec<string>('switchyard.showRunDiff', done.lastRunId);
    assert.match(diff, /^diff --git a\/README\.md b\/README\.md$/m);
    assert.match(diff, new RegExp(`^\\+${instruction}$`, 'm'));
  });

  it('a lane command that exits non-zero ends the task FAILED with the exit code in the reason', async function () {
    const config = vscode.workspace.getConfiguration('switchyard');
    const original = config.inspect<Record<string, unknown>>('lanes')?.workspaceValue;
    await config.update(
      'lanes',
      { command: { command: 'echo "agent gave up" >&2; exit 7' } },
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      const task = await exec<Task>('switchyard.newTask', {
        title: 'Doomed task',
        spec: 'this lane fails',
        lane: 'command',
      });
      await exec<QueueSummary>('switchyard.runTask', task.id);
      const failed = storedTask(root, task.id);
      assert.equal(failed.state, 'FAILED');
      assert.match(failed.failureReason ?? '', /exit code 7/);
      assert.match(failed.failureReason ?? '', /agent gave up/, 'the reason carries the real last error (stderr)');
      const runs = readState(root).runs.filter((r) => r.taskId === task.id);
      assert.ok(
        runs.length >= 1 && runs.every((r) => r.state === 'FAILED' && /exit code 7/.test(r.failureReason ?? '')),
        JSON.stringify(runs),
      );
    } finally {
      await config.update('lanes', original, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('getAPI(1) registers a lane that then appears and runs; getAPI(2) throws', async function () {
    const api = extension.exports.getAPI(1);
    const lane: LanePlugin = {
      manifest: {
        id: 'itest-notes',
        displayName: 'Integration Test Notes',
        version: '1.0.0',
        apiVersion: 1,
        kind: 'api',
        defaultRetryCap: 1,
        capabilities: { resume: 'none', streaming: false, tools: false },
      },
      async run(input) {
        mkdirSync(join(input.workspaceDir, 'notes'), { recursive: true });
        writeFileSync(join(input.workspaceDir, 'notes', `${input.task.id}.md`), `${input.task.spec}\n`);
        return { status: 'succeeded', summary: 'wrote a note' };
      },
    };
    const registration = api.registerLane(lane);
    try {
      assert.ok(
        api.lanes().some((l) => l.id === 'itest-notes'),
        'the new lane is listed',
      );
      const task = await exec<Task>('switchyard.newTask', {
        title: 'Use the plugin lane',
        spec: 'written by a plugin lane',
        lane: 'itest-notes',
      });
      await exec<QueueSummary>('switchyard.runTask', task.id);
      const done = storedTask(root, task.id);
      assert.equal(done.state, 'DONE', done.failureReason);
      assert.match(await exec<string>('switchyard.showRunDiff', done.lastRunId), /^\+written by a plugin lane$/m);
    } finally {
      registration.dispose();
    }
    assert.ok(!api.lanes().some((l) => l.id === 'itest-notes'), 'disposing the registration removes the lane');
    assert.throws(
      () => (extension.exports.getAPI as (v: number) => unknown)(2),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'unsupported-api-version');
        assert.match(error.message, /version 2 is not supported; supported versions: 1$/);
        return true;
      },
    );
    // The API object carries the lane toolkit, for third-party lanes.
    assert.equal(api.LANE_API_VERSION, 1);
    assert.equal(typeof api.runApiLane, 'function');
    assert.equal(typeof api.startProcessGroup, 'function');
  });

  it("switchyard.promoteSalvage(runId) puts a failed run's salvaged work on a branch of the user's", async function () {
    const api = extension.exports.getAPI(1);
    const registration = api.registerLane({
      manifest: {
        id: 'itest-dropper',
        displayName: 'Integration Test Dropper',
        version: '1.0.0',
        apiVersion: 1,
        kind: 'cli',
        defaultRetryCap: 1,
        capabilities: { resume: 'none', streaming: false, tools: false },
      },
      async run(input) {
        writeFileSync(join(input.workspaceDir, 'partial.txt'), 'half of the work\n');
        return { status: 'failed', failureReason: 'the stream stopped mid-line' };
      },
    });
    try {
      const task = await exec<Task>('switchyard.newTask', {
        title: 'Drop midway',
        spec: 'fails after writing',
        lane: 'itest-dropper',
      });
      await exec<QueueSummary>('switchyard.runTask', task.id);
      const failed = storedTask(root, task.id);
      assert.equal(failed.state, 'FAILED');
      const run = readState(root).runs.find((r) => r.id === failed.lastRunId)!;
      assert.equal(run.salvage?.branch, `switchyard/salvage/${run.id}`);
      const promotion = await exec<{ branch: string; commit: string; action: string }>(
        'switchyard.promoteSalvage',
        run.id,
      );
      assert.deepEqual(
        [promotion.branch, promotion.action, promotion.commit],
        [`salvage/${run.id}`, 'created', run.salvage!.commit],
      );
      assert.equal(git(root, 'rev-parse', `salvage/${run.id}`), run.salvage!.commit);
      assert.match(git(root, 'show', `salvage/${run.id}:partial.txt`), /^half of the work$/);
    } finally {
      registration.dispose();
    }
  });

  it("leaves the user's working tree untouched", function () {
    assert.equal(userGitStatus(root), baseline.status, 'git status (outside .switchyard/) is unchanged');
    assert.equal(git(root, 'rev-parse', 'HEAD'), baseline.head, 'HEAD did not move');
    assert.equal(git(root, 'rev-parse', '--abbrev-ref', 'HEAD'), baseline.branch, 'still on the same branch');
    assert.equal(readFileSync(join(root, 'src', 'hello.txt'), 'utf8'), baseline.hello);
    assert.equal(readFileSync(join(root, 'README.md'), 'utf8'), baseline.readme);
  });

  after(async function () {
    // Leave no editors behind for whatever runs next in this window.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

function exec<T>(command: string, ...args: unknown[]): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));
}

/** test-output/activation.json in the repository, for bench/RESULTS.md. */
function writeActivationReport(measured: { started: number; activateMs: number; firstCommandMs: number }): void {
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  const dir = join(extension.extensionPath, 'test-output');
  mkdirSync(dir, { recursive: true });
  const round = (ms: number): number => Math.round(ms * 10) / 10;
  const report = {
    extension: EXTENSION_ID,
    version: (extension.packageJSON as { version: string }).version,
    host: {
      appName: vscode.env.appName,
      vscodeVersion: vscode.version,
      uiKind: vscode.UIKind[vscode.env.uiKind],
      remoteName: vscode.env.remoteName ?? null,
    },
    node: process.version,
    activationMs: round(measured.activateMs),
    activationMeasuredAs:
      'cold: from vscode.extensions.getExtension(id).activate() start until its promise resolved, in the real extension host',
    breakdown: activationBreakdown(measured.started),
    firstCommandMs: round(measured.firstCommandMs),
    firstCommandMeasuredAs: 'switchyard.refresh right after activation (opens the project: git root, state file)',
    measuredAt: new Date().toISOString(),
  };
  writeFileSync(join(dir, 'activation.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `    activation ${report.activationMs} ms, first command ${report.firstCommandMs} ms (test-output/activation.json)`,
  );
  console.log(`    activation breakdown: ${JSON.stringify(report.breakdown)}`);
}

/**
 * Where the activation's time went, from the marks the extension's entry puts on this process's performance timeline
 * (src/ui/activationMarks.ts): the host loading the entry, the host preparing the ExtensionContext (its storage,
 * prepared alongside the loading; VS Code calls activate() when both are done), and activate() itself. VS Code's own
 * per-extension figure (Developer: Show Running Extensions) is code loading + the activate call.
 */
function activationBreakdown(started: number): Record<string, number> | { missing: string } {
  const at = (name: string): number | undefined => performance.getEntriesByName(name, 'mark').at(-1)?.startTime;
  const loaded = at(ACTIVATION_MARKS.loaded);
  const start = at(ACTIVATION_MARKS.activateStart);
  const end = at(ACTIVATION_MARKS.activateEnd);
  if (loaded === undefined || start === undefined || end === undefined) return { missing: 'the entry set no marks' };
  const round = (ms: number): number => Math.round(ms * 10) / 10;
  return {
    codeLoadingMs: round(loaded - started),
    hostContextWaitMs: round(start - loaded),
    activateCallMs: round(end - start),
    codeLoadingPlusActivateCallMs: round(loaded - started + (end - start)),
  };
}
