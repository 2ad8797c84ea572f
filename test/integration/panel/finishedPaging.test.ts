import * as assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { FINISHED_PAGE, FinishedWindow, finishedSlice } from '../../../src/core/panel/finishedWindow';
import { PanelFeed } from '../../../src/core/panel/panelFeed';
import { type HostMessage, PanelView, WebviewMessage } from '../../../src/core/panel/panelProtocol';
import { Project } from '../../../src/core/project/project';
import { eventsPath } from '../../../src/core/store/runFiles';
import { addTasks } from '../../helpers/finishedTasks';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

const HISTORY = 10_000;
const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `t${from + i}`);
const sorted = (ids: Iterable<string>): string[] => [...ids].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));

/**
 * A real files store holding 10,000 finished tasks (9,990 in the history, the newest in the working set) and four
 * unfinished ones: what the panel and the report show of it, and what "more" loads.
 */
describe('paging through 10,000 finished tasks (panel model, report)', function () {
  this.timeout(120_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let project: Project;

  before(async () => {
    repo = await makeTempRepo();
    const store = await ProjectStore.open(repo.dir);
    for (let from = 1; from <= HISTORY; from += 1_000)
      await store.update((s) => addTasks(s, from, from + 999, from === 9_001 ? 'FAILED' : 'DONE'));
    await store.update((s) => {
      addTasks(s, 10_001, 10_003, 'READY');
      addTasks(s, 10_004, 10_004, 'RUNNING');
    });
    project = await Project.open(repo.dir, { registry: new LaneRegistry() });
  });
  after(async () => {
    await project?.close();
    await repo?.cleanup();
  });

  const active = range(10_001, 10_004);

  it('the store holds them in its history, not in the working set', async () => {
    const store = await ProjectStore.open(repo.dir);
    const working = await store.readWorking();
    assert.ok(working.tasks.length < 100, `the working set holds ${working.tasks.length} tasks`);
    assert.equal((await project.state()).tasks.length, HISTORY + 4);
  });

  it('the panel shows the active tasks and the newest page; "more" sends exactly the next page', async () => {
    const window = new FinishedWindow();
    const posted: HostMessage[] = [];
    const feed = new PanelFeed({
      read: async () => {
        const recent = finishedSlice(await project.recentState(window.shown), window.shown);
        return {
          state: recent.state,
          root: repo.dir,
          finished: { shown: recent.finished.length, more: recent.more },
        };
      },
      post: (m) => posted.push(m),
    });
    try {
      await feed.ready();
      const snapshot = posted.find((m) => m.type === 'snapshot');
      assert.ok(snapshot?.type === 'snapshot');
      assert.equal(PanelView.safeParse(snapshot.view).success, true);
      assert.deepEqual(sorted(snapshot.view.tasks.map((t) => t.id)), [...range(9_951, 10_000), ...active]);
      assert.deepEqual(snapshot.view.header.finished, { shown: FINISHED_PAGE, more: true });
      assert.equal(snapshot.view.header.total, FINISHED_PAGE + 4, 'the header counts what the view holds');
      assert.deepEqual(snapshot.view.header.counts, { FAILED: FINISHED_PAGE, READY: 3, RUNNING: 1 });
      assert.deepEqual(snapshot.view.lanes.over, { finished: FINISHED_PAGE, more: true });
      const lane = snapshot.view.lanes.rows.find((r) => r.lane === 'command');
      assert.equal(lane?.tasks, FINISHED_PAGE + 1, 'lane figures over the shown finished tasks and the running one');

      // The webview's "more" (parsed at the boundary as the host does), then the next read.
      assert.deepEqual(WebviewMessage.parse({ type: 'more' }), { type: 'more' });
      assert.equal(WebviewMessage.safeParse({ type: 'more', page: 2 }).success, false);
      window.showMore();
      await feed.flushNow();
      const patch = posted.at(-1);
      assert.ok(patch?.type === 'patch', `a patch after "more", got ${patch?.type}`);
      assert.deepEqual(sorted(patch.upsert.map((t) => t.id)), range(9_901, 9_950));
      assert.deepEqual(patch.remove, []);
      assert.deepEqual(patch.sections.header?.finished, { shown: 2 * FINISHED_PAGE, more: true });
      assert.deepEqual(patch.sections.lanes?.over, { finished: 2 * FINISHED_PAGE, more: true });
    } finally {
      feed.dispose();
    }
  });

  it('pages cross the history segments and end with the oldest task, then say there is no more', async () => {
    // Across the FAILED thousand: 8,951..9,050 straddles DONE and FAILED tasks.
    const recent = await project.recentState(1_050);
    const finished = finishedSlice(recent, 1_050).finished;
    assert.deepEqual(finished.slice(-100), range(8_951, 9_050).reverse());
    assert.equal(recent.more, true);
    const cut = finishedSlice(recent, 1_000);
    assert.equal(cut.finished.length, 1_000);
    assert.equal(cut.more, true);
    assert.equal(cut.state.tasks.length, 1_004);
    assert.ok(cut.state.runs.every((r) => cut.state.tasks.some((t) => t.id === r.taskId)));
    const none = await project.recentState(0);
    assert.deepEqual(none.finished, []);
    assert.equal(none.more, true, 'a window of 0 still says older finished tasks exist');
    assert.deepEqual(sorted(none.state.tasks.map((t) => t.id)), active);
    const all = await project.recentState(HISTORY);
    assert.equal(all.finished.length, HISTORY);
    assert.equal(all.finished.at(-1), 't1');
    assert.equal(all.more, false);
  });

  it('report covers the active tasks and the newest finished page, with their run logs; --all every task', async () => {
    const log = async (runId: string, message: string): Promise<void> => {
      const file = eventsPath(repo.dir, runId);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, `${JSON.stringify({ ts: '2026-01-02T00:00:00.000Z', type: 'decision', message })}\n`);
    };
    await log('t10000.1', 'verified: the newest run');
    await log('t5.1', 'verified: an old run');
    const report = await project.report({ finished: 20 });
    assert.deepEqual(sorted(report.tasks.map((t) => t.id)), [...range(9_981, 10_000), ...active]);
    assert.deepEqual(report.finished, { shown: 20, more: true });
    const newest = report.tasks.find((t) => t.id === 't10000');
    assert.deepEqual(
      newest?.events.map((e) => e.message),
      ['verified: the newest run'],
    );

    const cli = await runCli(['report', '--repo', repo.dir]);
    assert.equal(cli.code, 0, cli.err);
    assert.deepEqual(sorted(cli.out.match(/^t\d+(?= · )/gm) ?? []), [...range(9_981, 10_000), ...active]);
    assert.match(cli.out, /the 20 newest finished ones; older finished tasks left out: `switchyard report --all`/);
    const three = await runCli(['report', '--finished', '3', '--json', '--repo', repo.dir]);
    const json = JSON.parse(three.out) as { tasks: { id: string }[]; finished: unknown };
    assert.deepEqual(sorted(json.tasks.map((t) => t.id)), [...range(9_998, 10_000), ...active]);
    assert.deepEqual(json.finished, { shown: 3, more: true });

    const every = await runCli(['report', '--all', '--json', '--repo', repo.dir]);
    const all = JSON.parse(every.out) as { tasks: { id: string; events: { message: string }[] }[]; finished?: unknown };
    assert.equal(all.tasks.length, HISTORY + 4);
    assert.equal(all.finished, undefined);
    assert.deepEqual(
      all.tasks.find((t) => t.id === 't5')?.events.map((e) => e.message),
      ['verified: an old run'],
    );
    const one = await runCli(['report', '--task', 't5', '--repo', repo.dir]);
    assert.match(one.out, /^t5 · task 5 — DONE/m, '--task finds a task deep in the history');
    assert.doesNotMatch(one.out, /left out/);
  });
});
