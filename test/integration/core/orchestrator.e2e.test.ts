import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { createCommandLane } from '../../../plugins/command';
import { makeTempRepo } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

/**
 * The stand-in agent (and reviewer) for the end-to-end test. Each task writes
 * its own file. b's first attempt fails verification and its fix attempt
 * (told by SWITCHYARD_FEEDBACK) passes; the reviewer asks for changes on c's
 * first attempt; d runs until it is canceled and then still delivers a
 * result (it ignores the abort's SIGTERM for a moment).
 */
const AGENT = `
const fs = require('fs');
const title = process.env.SWITCHYARD_TASK_TITLE;
const feedback = process.env.SWITCHYARD_FEEDBACK || '';
if (process.env.SWITCHYARD_REVIEW === '1') {
  const spec = fs.readFileSync(0, 'utf8');
  if (title === 'c' && !spec.includes('+c: reviewed')) {
    console.log('c.txt must say that it was reviewed'); process.exit(1);
  }
  console.log('looks good'); process.exit(0);
}
if (title === 'd') {
  process.on('SIGTERM', () => { fs.writeFileSync('d.txt', 'late\\n'); setTimeout(() => process.exit(0), 100); });
  fs.writeFileSync(process.env.D_STARTED, 'started');
  setTimeout(() => process.exit(0), 20000);
} else {
  let text = title + ': done';
  if (title === 'b') text = feedback.includes('final') ? 'b: final' : 'b: draft';
  if (title === 'c') text = feedback.includes('reviewed') ? 'c: reviewed' : 'c: draft';
  if (title === 'e') text = 'e: built on ' + ['b.txt', 'c.txt'].filter((f) => fs.existsSync(f)).join(' and ');
  fs.writeFileSync(title + '.txt', text + '\\n');
}
`;

describe('orchestrator end to end (real git repository, command lane)', function () {
  this.timeout(120_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let tools: string;
  beforeEach(async () => {
    repo = await makeTempRepo();
    tools = await mkdtemp(join(tmpdir(), 'switchyard-agent-'));
  });
  afterEach(async () => {
    await repo.cleanup();
    await rm(tools, { recursive: true, force: true });
  });

  it('a 6-task DAG: a verify failure fixed on attempt 2, a review that requests changes, a cancel kept as STALE_RESULT, the rest integrated in dependency order', async () => {
    const agent = join(tools, 'agent.cjs');
    const started = join(tools, 'd.started');
    await writeFile(agent, AGENT);
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    const project = await Project.open(repo.dir, { registry });
    await project.settings.update((s) => {
      s.laneSettings.command = { command: `D_STARTED="${started}" exec node "${agent}"` };
      s.review = { enabled: true };
    });
    const userHead = (await repo.git('rev-parse', 'HEAD')).trim();
    await project.tasks.addMany(
      [
        { title: 'a', key: 'a' },
        {
          title: 'b',
          key: 'b',
          dependsOn: ['a'],
          acceptance: 'grep -q final b.txt || { echo "b.txt must say final"; exit 1; }',
        },
        { title: 'c', key: 'c', dependsOn: ['a'] },
        { title: 'd', key: 'd' },
        { title: 'e', key: 'e', dependsOn: ['b', 'c'], acceptance: 'test -f b.txt && test -f c.txt' },
        { title: 'f', key: 'f', dependsOn: ['e'] },
      ],
      'dag.json',
    );

    const draining = project.runQueue();
    await until('the lane to start', () => existsSync(started), 30_000);
    await project.tasks.cancel('t4');
    const summary = await draining;

    const state = await project.state();
    const byTitle = (title: string) => state.tasks.find((t) => t.spec.title === title)!;
    const runs = (title: string) => state.runs.filter((r) => r.taskId === byTitle(title).id);
    assert.deepEqual(
      state.tasks.map((t) => `${t.spec.title}:${t.state}`),
      ['a:DONE', 'b:DONE', 'c:DONE', 'd:CANCELED', 'e:DONE', 'f:DONE'],
      JSON.stringify(state.tasks.map((t) => t.failureReason)),
    );

    const [b1, b2] = runs('b');
    assert.equal(b1!.failureCode, 'verify-failed');
    assert.match(b1!.failureReason!, /b\.txt must say final/);
    assert.equal(b2!.attempt, 2);
    assert.equal(b2!.state, 'SUCCEEDED');
    assert.deepEqual(
      b2!.resumeFrom,
      { runId: b1!.id, start: 'earlier-work', workBranch: b1!.branch, commit: b1!.headCommit },
      'the fix attempt started from attempt 1',
    );
    assert.match(b2!.feedback!, /b\.txt must say final/);

    const [c1, c2] = runs('c');
    assert.equal(c1!.failureCode, 'changes-requested');
    assert.deepEqual(c1!.review, {
      lane: 'command',
      verdict: 'changes-requested',
      reasons: ['c.txt must say that it was reviewed'],
      durationMs: c1!.review!.durationMs,
    });
    assert.match(c2!.feedback!, /requested changes:\n- c\.txt must say that it was reviewed/);
    assert.equal(c2!.review?.verdict, 'approve');

    const [d1] = runs('d');
    assert.equal(d1!.state, 'STALE_RESULT');
    assert.equal(byTitle('d').integration, undefined);
    assert.match(await project.runs.diff(d1!.id), /\+late/, 'the late result is kept for inspection');

    // Integrated in dependency order, on the target branch only: one commit per task (its attempts squashed, no
    // merge commit), whose message is the task's title, then its task and run ids.
    const range = `${userHead}..switchyard/integration`;
    const log = (await repo.git('log', '--reverse', '--format=%s|%P|%b', range))
      .split('\n')
      .filter((l) => l.includes('|'));
    for (const line of log) assert.equal(line.split('|')[1]!.split(' ').length, 1, `one parent: ${line}`);
    const at = (title: string) =>
      log.findIndex((line) => new RegExp(`^${title}\\|\\w+\\|Switchyard task ${byTitle(title).id}, run `).test(line));
    const reached = (await repo.git('rev-list', range)).trim().split('\n');
    assert.ok(!reached.includes(b1!.headCommit!), "the failed attempt's commit is not in the target's history");
    for (const title of ['a', 'b', 'c', 'e', 'f']) assert.ok(at(title) >= 0, `${title} integrated: ${log.join(' / ')}`);
    assert.equal(at('d'), -1, 'the canceled task is never integrated');
    assert.ok(
      at('a') < at('b') && at('a') < at('c') && at('b') < at('e') && at('c') < at('e') && at('e') < at('f'),
      log.join(' / '),
    );
    const show = async (file: string) => (await repo.git('show', `switchyard/integration:${file}`)).trim();
    assert.equal(await show('b.txt'), 'b: final');
    assert.equal(await show('c.txt'), 'c: reviewed');
    assert.equal(
      await show('e.txt'),
      'e: built on b.txt and c.txt',
      "e started from the target branch with its dependencies' work",
    );
    await assert.rejects(show('d.txt'));

    // The user's branch and working tree are untouched.
    assert.equal((await repo.git('rev-parse', 'HEAD')).trim(), userHead);
    assert.equal((await repo.git('branch', '--show-current')).trim(), 'main');
    assert.equal(await repo.git('status', '--porcelain'), '');
    assert.equal(summary.stats.peak.INTEGRATING, 1);
  });
});
