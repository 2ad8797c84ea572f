import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { Run } from '../../../src/core/model/run';
import { Task } from '../../../src/core/model/task';
import type { TasksTreeRow, TasksTreeView } from '../../../src/ui/commands/tasksTreeRows';
import { git } from '../helpers/workspaceState';

// The Tasks tree of a project with 10,000 finished tasks in the real extension host: the newest page of them and a
// "Show more finished tasks…" row, whose command loads the next page. The history stays in the test workspace, so
// this file runs last (the suite runs the files in name order).

const HISTORY = 10_000;
const PAGE = 50;
const EXTENSION_ID = 'switchyard.switchyard';

describe('the Tasks tree pages through 10,000 finished tasks', function () {
  this.timeout(240_000);
  let root: string;
  let first: number;

  before(async function () {
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    first = await writeHistory(root, HISTORY);
    await exec('switchyard.refresh');
  });

  it('measures the refresh of the tree and the memory of the extension host', async function () {
    await measure(root);
  });

  it('shows the newest 50 finished tasks and a Show more row; the command adds the next 50', async function () {
    const tree = await exec<TasksTreeView>('switchyard.tasksTreeRows');
    const last = first + HISTORY - 1;
    assert.deepEqual(finishedIds(tree.rows), range(last - PAGE + 1, last));
    const more = tree.rows.at(-1);
    assert.equal(more?.level, 0);
    assert.equal(more?.label, 'Show more finished tasks…');
    assert.equal(more?.description, `${PAGE} newest shown`);
    const done = tree.rows.find((r) => r.level === 0 && r.label === 'DONE');
    assert.equal(done?.description, `${PAGE} of the newest ${PAGE} finished`);

    const shown = await exec<{ shown: number; more: boolean }>('switchyard.showMoreFinished');
    assert.deepEqual(shown, { shown: 2 * PAGE, more: true });
    const next = await exec<TasksTreeView>('switchyard.tasksTreeRows');
    assert.deepEqual(finishedIds(next.rows), range(last - 2 * PAGE + 1, last));
    assert.equal(next.rows.at(-1)?.description, `${2 * PAGE} newest shown`);
  });
});

/** The ids of the tasks under the finished states' rows, by number. */
function finishedIds(rows: readonly TasksTreeRow[]): string[] {
  const ids: string[] = [];
  let finished = false;
  for (const row of rows) {
    if (row.level === 0) finished = ['DONE', 'FAILED', 'CANCELED'].includes(row.label);
    else if (finished && row.level === 1) ids.push(row.label.split(' · ')[0]!);
  }
  return ids.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => `t${from + i}`);
}

/** `count` DONE tasks with one succeeded run each, numbered after the project's tasks; the first number. */
async function writeHistory(root: string, count: number): Promise<number> {
  const store = await ProjectStore.open(root);
  const head = git(root, 'rev-parse', 'HEAD');
  const first = (await store.readWorking()).nextTaskNumber;
  for (let from = first; from < first + count; from += 1_000) {
    const to = Math.min(first + count - 1, from + 999);
    await store.update((s) => {
      for (let n = from; n <= to; n++) {
        const at = new Date(Date.UTC(2026, 0, 1) + n * 1_000).toISOString();
        s.tasks.push(
          Task.parse({
            id: `t${n}`,
            spec: { title: `history ${n}`, spec: `an earlier change ${n}` },
            state: 'DONE',
            baseCommit: head,
            createdAt: at,
            updatedAt: at,
            attempts: 1,
            generation: 0,
            lastRunId: `t${n}.1`,
          }),
        );
        s.runs.push(
          Run.parse({
            id: `t${n}.1`,
            taskId: `t${n}`,
            lane: 'command',
            attempt: 1,
            generation: 0,
            state: 'SUCCEEDED',
            branch: `switchyard/t${n}.1`,
            worktree: join(root, '.switchyard', 'worktrees', `t${n}.1`),
            baseCommit: head,
            startedAt: at,
            endedAt: at,
            durationMs: 100,
          }),
        );
      }
      s.nextTaskNumber = to + 1;
    });
  }
  return first;
}

/**
 * The tree's refresh (a read of the project, then the rows) five times, the median and range, and the extension
 * host's memory after: printed and written to test-output/paging.json.
 */
async function measure(root: string): Promise<void> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const used = process.cpuUsage();
    await exec('switchyard.refresh');
    await exec<TasksTreeView>('switchyard.tasksTreeRows');
    const spent = process.cpuUsage(used);
    times.push(performance.now() - started);
    cpu.push((spent.user + spent.system) / 1_000);
  }
  const sorted = (list: number[]): number[] => [...list].sort((a, b) => a - b);
  const round = (ms: number): number => Math.round(ms * 10) / 10;
  const memory = process.memoryUsage();
  const report = {
    finishedTasks: HISTORY,
    root,
    treeRefreshMs: { median: round(sorted(times)[2]!), min: round(sorted(times)[0]!), max: round(sorted(times)[4]!) },
    treeRefreshCpuMs: { median: round(sorted(cpu)[2]!) },
    hostRssMb: round(memory.rss / 1024 / 1024),
    hostHeapUsedMb: round(memory.heapUsed / 1024 / 1024),
    measuredAs:
      'switchyard.refresh (the snapshot reads the project) then switchyard.tasksTreeRows (every row), in the real extension host; memory: process.memoryUsage() of the extension host after it',
    measuredAt: new Date().toISOString(),
  };
  const dir = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test-output');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'paging.json'), `${JSON.stringify(report, null, 2)}\n`);
  assert.ok(report.treeRefreshMs.median > 0);
  console.log(`    tree refresh with ${HISTORY} finished tasks: ${JSON.stringify(report)}`);
}

function exec<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));
}
