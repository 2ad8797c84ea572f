import assert from 'node:assert/strict';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildCliBundle } from '../../helpers/cliBundle';
import { CRASH_LANE, crashProject } from '../../helpers/crashProject';
import { repoGit } from '../../helpers/repoGit';
import { laneMetrics } from '../../../src/core/routing/laneMetrics';
import { laneRows } from '../../../src/core/panel/laneRows';
import type { ProjectState } from '../../../src/core/store/projectState';

const REVIEW_LANE = resolve('test/fixtures/lanes/reviewLane.mjs');

/**
 * Every paid call counted once, on every path a run can end by (real
 * SIGKILLs of the CLI, real git): the crash lane journals 6 model calls of
 * $0.01 (100 + 10 tokens each). A run killed after its merge was recorded
 * (a pre-push hook of the repository SIGKILLs the CLI while it pushes the
 * merged target branch) is finished by the next process with the figures
 * its journal holds; resume counts add up over every resume; a review's
 * cost is in the run's, task's, lane's and project's totals.
 */
describe('cost and resume counts on every recovery path (real SIGKILL, real processes)', function () {
  this.timeout(240_000);
  let cli: string;
  before(async () => {
    cli = await buildCliBundle();
  });
  after(async () => rm(join(cli, '..'), { recursive: true, force: true }));

  /**
   * Push mode to a bare remote, and a pre-push hook that SIGKILLs the `switchyard` process pushing (its ancestor
   * running cli.js).
   */
  async function killOnPush(t: Awaited<ReturnType<typeof crashProject>>) {
    const remote = join(t.side, 'remote.git');
    await mkdir(remote, { recursive: true });
    await repoGit(remote)('init', '-q', '--bare');
    await t.repo.git('remote', 'add', 'origin', remote);
    await t.project.settings.update((s) => {
      s.integration.mode = 'push';
    });
    const hook = join(t.repo.dir, '.git', 'hooks', 'pre-push');
    const arm = () => {
      writeFileSync(
        hook,
        [
          '#!/bin/sh',
          'pid=$PPID',
          'while [ "$pid" -gt 1 ]; do',
          '  if tr "\\0" " " < /proc/$pid/cmdline | grep -q "cli\\.js"; then kill -9 $pid; sleep 5; fi',
          "  pid=$(awk '{print $4}' /proc/$pid/stat)",
          'done',
          'exit 1',
          '',
        ].join('\n'),
      );
      chmodSync(hook, 0o755);
    };
    return { arm, disarm: () => rmSync(hook, { force: true }) };
  }

  const journalOf = (t: Awaited<ReturnType<typeof crashProject>>, runId = 't1.1') =>
    readFileSync(join(t.runDir(runId), 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const journaledCost = (
    events: { type: string; usage?: { costUsd: number; inputTokens: number; outputTokens: number } }[],
  ) =>
    events
      .filter((e) => e.type === 'outcome' && e.usage)
      .reduce(
        (a, e) => ({
          cost: a.cost + e.usage!.costUsd,
          input: a.input + e.usage!.inputTokens,
          output: a.output + e.usage!.outputTokens,
        }),
        { cost: 0, input: 0, output: 0 },
      );
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

  it("killed after its merge was recorded, before SUCCEEDED: the next process records the journaled cost, the work's duration, no salvage", async () => {
    const t = await crashProject(cli);
    try {
      const push = await killOnPush(t);
      push.arm();
      const killed = await t.sy(['run']);
      const killedAt = Date.now();
      assert.equal(killed.signal, 'SIGKILL', `killed while pushing: ${killed.stdout} ${killed.stderr}`);
      push.disarm();
      let state = await t.readState();
      assert.equal(state.runs[0].state, 'RUNNING');
      assert.equal(state.tasks[0].integration?.runId, 't1.1', 'the merge was recorded before the kill');

      const resumed = await t.sy(['resume']);
      assert.equal(resumed.exitCode, 0, resumed.stderr);
      assert.match(resumed.stdout, /task t1 DONE \(merged into switchyard\/integration/);
      assert.doesNotMatch(resumed.stdout, /salvaged/);
      state = await t.readState();
      const run = state.runs[0];
      assert.equal(run.state, 'SUCCEEDED');
      const journaled = journaledCost(journalOf(t));
      assert.ok(close(journaled.cost, 0.06), `6 paid calls in the journal (${journaled.cost})`);
      assert.ok(
        close(run.usage.costUsd, journaled.cost),
        `recorded cost ${run.usage?.costUsd} = journaled ${journaled.cost}`,
      );
      assert.deepEqual([run.usage.inputTokens, run.usage.outputTokens], [journaled.input, journaled.output]);
      assert.equal(run.salvage, undefined, 'a merged run salvages nothing');
      assert.ok(
        Date.parse(run.endedAt) <= killedAt,
        `the duration ends where the work did (${run.endedAt}), not at the recovery`,
      );
      assert.equal(run.durationMs, Date.parse(run.endedAt) - Date.parse(run.startedAt));
      for (let i = 1; i <= 6; i++) assert.equal(t.count(`never-${i}`), 1);
      const events = readFileSync(join(t.runDir('t1.1'), 'events.jsonl'), 'utf8');
      assert.match(events, /recorded from the journal and log of t1\.1: \$0\.0600 \(600\+60 tokens\)/);
    } finally {
      await t.cleanup();
    }
  });

  it('two resumes, then killed after the merge: resume counts add up over both resumes, each paid call once', async () => {
    const t = await crashProject(cli);
    try {
      const push = await killOnPush(t);
      // Killed inside call 4 (model-2: sent, not recorded), then inside call 8 (safe-3: run, not recorded) of the
      // first resume.
      assert.equal((await t.sy(['run'], { CRASH_AT: '4:inside' })).signal, 'SIGKILL');
      assert.equal((await t.sy(['resume'], { CRASH_AT: '8:inside' })).signal, 'SIGKILL');
      push.arm();
      assert.equal((await t.sy(['resume'])).signal, 'SIGKILL', 'the second resume got through to the merge');
      push.disarm();
      const last = await t.sy(['resume']);
      assert.equal(last.exitCode, 0, last.stderr);
      const run = (await t.readState()).runs[0];
      assert.equal(run.state, 'SUCCEEDED');
      assert.equal(run.resumes, 2);
      // Resume 1 read back calls 1–3 and re-sent call 4; resume 2 read back calls 1–7 and re-ran call 8.
      assert.deepEqual(run.resumeCounts, { replayed: 10, resent: 1, rerun: 1, uncertain: 0 });
      assert.equal(t.count('model-2'), 2, 'the interrupted model call was sent twice');
      assert.ok(
        close(run.usage.costUsd, journaledCost(journalOf(t)).cost) && close(run.usage.costUsd, 0.06),
        `paid once per recorded response (${run.usage.costUsd})`,
      );
      for (let i = 1; i <= 6; i++) assert.equal(t.count(`never-${i}`), 1);
    } finally {
      await t.cleanup();
    }
  });

  it('two resumes that finish in process: resume counts add up over both', async () => {
    const t = await crashProject(cli);
    try {
      assert.equal((await t.sy(['run'], { CRASH_AT: '4:inside' })).signal, 'SIGKILL');
      assert.equal((await t.sy(['resume'], { CRASH_AT: '8:inside' })).signal, 'SIGKILL');
      const done = await t.sy(['resume']);
      assert.equal(done.exitCode, 0, done.stderr);
      assert.match(done.stdout, /resumed 2× \(replayed 10, re-sent 1, re-run 1, uncertain 0\)/);
      const run = (await t.readState()).runs[0];
      assert.deepEqual(run.resumeCounts, { replayed: 10, resent: 1, rerun: 1, uncertain: 0 });
      assert.ok(close(run.usage.costUsd, 0.06));
    } finally {
      await t.cleanup();
    }
  });

  it('interrupted with its worktree gone (not resumable): the failed run still records what its journal says it spent', async () => {
    const t = await crashProject(cli);
    try {
      // Call 9 is step 3's never tool: three model calls ($0.03) are in the journal.
      assert.equal((await t.sy(['run'], { CRASH_AT: '9:after' })).signal, 'SIGKILL');
      await t.repo.git('worktree', 'remove', '--force', join(t.repo.dir, '.switchyard', 'worktrees', 't1.1'));
      const resumed = await t.sy(['resume']);
      assert.equal(resumed.exitCode, 0, resumed.stderr);
      const run = (await t.readState()).runs[0];
      assert.equal(run.failureCode, 'interrupted');
      assert.ok(
        close(run.usage.costUsd, journaledCost(journalOf(t)).cost) && close(run.usage.costUsd, 0.03),
        `recorded ${run.usage?.costUsd}`,
      );
    } finally {
      await t.cleanup();
    }
  });

  it("a review's cost is in the run's, task's, lane's, panel's and project's totals, also when killed after the merge", async () => {
    const t = await crashProject(cli, (s) => {
      s.laneModules = [CRASH_LANE, REVIEW_LANE];
      s.review = { enabled: true, lane: 'reviewer' };
    });
    try {
      const push = await killOnPush(t);
      push.arm();
      assert.equal((await t.sy(['run'])).signal, 'SIGKILL');
      push.disarm();
      assert.equal((await t.sy(['resume'])).exitCode, 0);
      const state = (await t.readState()) as ProjectState;
      const run = state.runs[0]!;
      assert.equal(run.state, 'SUCCEEDED');
      assert.equal(run.review?.verdict, 'approve');
      assert.ok(close(run.reviewUsage!.costUsd, 0.005), `the review's part (${run.reviewUsage?.costUsd})`);
      assert.ok(close(run.usage!.costUsd, 0.065), `lane calls $0.06 + review $0.005 (${run.usage?.costUsd})`);
      assert.deepEqual([run.usage!.inputTokens, run.usage!.outputTokens], [1_100, 110]);
      assert.ok(close(laneMetrics(state, 'crash', 0, Date.now()).costUsd, 0.065), 'lane (and canary) figures');
      assert.ok(
        close(laneRows(state, Date.now()).rows.find((r) => r.lane === 'crash')!.costUsd, 0.065),
        "the panel's lane rows",
      );
      const status = await t.sy(['status']);
      assert.match(status.stdout, /t1 crash test · cost \$0\.0650/, 'the task total');
      assert.match(status.stdout, /total cost \$0\.0650/, 'the project total');
      assert.match(
        status.stdout,
        /1100\+110 tokens \$0\.0650 \(review \$0\.0050\)/,
        "the run line shows the review's part",
      );
    } finally {
      await t.cleanup();
    }
  });
});
