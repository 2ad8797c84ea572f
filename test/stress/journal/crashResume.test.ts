import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { buildCliBundle } from '../../helpers/cliBundle';
import { setTrust } from '../../../src/cli/trustedWorkspaces';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { makeTempRepo } from '../../helpers/tempRepo';

/**
 * Crash tests that really kill: the crash lane (test/fixtures/lanes/crashLane.mjs)
 * makes 18 durable calls (6 × model, safe tool, never tool) and SIGKILLs the
 * CLI process at a chosen call and phase. A new process resumes the run.
 */
const LANE = resolve('test/fixtures/lanes/crashLane.mjs');
const STEPS = 6;
const CALLS = STEPS * 3;
const PHASES = ['before', 'inside', 'after'] as const;

describe('crash and resume (real SIGKILL, real processes)', function () {
  this.timeout(240_000);
  let cli: string;
  before(async () => {
    cli = await buildCliBundle();
  });
  after(async () => rm(join(cli, '..'), { recursive: true, force: true }));

  async function setup() {
    const repo = await makeTempRepo();
    const counts = join(repo.dir, '..', `${repo.dir.split('/').pop()}-counts`);
    // The lane module is loaded from the project settings only in a trusted workspace.
    const config = { XDG_CONFIG_HOME: join(counts, '..', `${repo.dir.split('/').pop()}-config`) };
    await setTrust(repo.dir, true, config);
    const sy = (args: string[], env: Record<string, string> = {}) =>
      execa('node', [cli, ...args, '--repo', repo.dir], { reject: false, env: { ...config, ...env }, extendEnv: true });
    // Set up in-process (faster than two more CLI processes); the runs below are real processes.
    const project = await Project.open(repo.dir, { registry: new LaneRegistry() });
    await project.settings.update((s) =>
      Object.assign(s, {
        laneModules: [LANE],
        defaultLane: 'crash',
        leaseMs: 60_000,
        laneSettings: { crash: { countsDir: counts } },
      }),
    );
    await project.tasks.add({ title: 'crash test' });
    const stateFile = join(repo.dir, '.switchyard', 'state.json');
    const readState = async () => JSON.parse(await readFile(stateFile, 'utf8'));
    const count = (name: string) =>
      existsSync(join(counts, name)) ? readFileSync(join(counts, name), 'utf8').trim().split('\n').length : 0;
    const cleanup = async () => {
      await repo.cleanup();
      await rm(counts, { recursive: true, force: true });
      await rm(config.XDG_CONFIG_HOME, { recursive: true, force: true });
    };
    const diff = () => readFile(join(repo.dir, '.switchyard', 'runs', 't1.1', 'diff.patch'), 'utf8');
    return { repo, sy, readState, count, cleanup, diff };
  }

  let baselineDiff = '';
  it('an uninterrupted run: every call once, the baseline diff', async () => {
    const t = await setup();
    try {
      const run = await t.sy(['run']);
      assert.equal(run.exitCode, 0, run.stderr);
      for (let i = 1; i <= STEPS; i++)
        for (const c of ['model', 'safe', 'never']) assert.equal(t.count(`${c}-${i}`), 1, `${c}-${i}`);
      baselineDiff = await t.diff();
      assert.match(baselineDiff, /out\/deploy-6\.txt/);
    } finally {
      await t.cleanup();
    }
  });

  const points = Array.from({ length: CALLS }, (_, i) => PHASES.map((phase) => ({ call: i + 1, phase }))).flat();
  it(`${points.length} kill points: completed calls run once, never-calls at most once and reported uncertain, same diff`, async () => {
    assert.ok(baselineDiff, 'the baseline ran');
    assert.ok(points.length >= 50);
    for (const { call, phase } of points) {
      const label = `kill at call ${call} ${phase}`;
      const t = await setup();
      try {
        const killed = await t.sy(['run'], { CRASH_AT: `${call}:${phase}` });
        assert.equal(killed.signal, 'SIGKILL', `${label}: the CLI was killed (${killed.stderr})`);
        const resumed = await t.sy(['resume']);
        assert.equal(resumed.exitCode, 0, `${label}: ${resumed.stderr}`);
        assert.match(resumed.stdout, /resumed t1\.1/, label);
        const state = await t.readState();
        assert.equal(state.tasks[0].state, 'DONE', `${label}: ${state.tasks[0].failureReason}`);
        const run = state.runs[0];
        assert.equal(state.runs.length, 1, `${label}: resumed in place, no new attempt`);
        assert.equal(run.resumes, 1);

        const step = Math.ceil(call / 3);
        const kind = ['model', 'safe', 'never'][(call - 1) % 3]!;
        for (let i = 1; i <= STEPS; i++) {
          for (const c of ['model', 'safe', 'never']) {
            const n = t.count(`${c}-${i}`);
            const interrupted = phase === 'inside' && i === step && c === kind;
            if (c === 'never')
              assert.equal(n, 1, `${label}: ${c}-${i} executed exactly once (at most once by the harness)`);
            else assert.equal(n, interrupted ? 2 : 1, `${label}: ${c}-${i}`);
          }
        }
        const expectUncertain = phase === 'inside' && kind === 'never' ? 1 : 0;
        assert.equal(run.resumeCounts.uncertain, expectUncertain, `${label}: uncertain count`);
        if (expectUncertain)
          assert.equal(
            readFileSync(
              join(t.repo.dir, '..', `${t.repo.dir.split('/').pop()}-counts`, `uncertain-${step}`),
              'utf8',
            ).trim(),
            'happened',
          );
        assert.equal(run.resumeCounts.resent, phase === 'inside' && kind === 'model' ? 1 : 0, `${label}: re-sent`);
        assert.equal(run.resumeCounts.rerun, phase === 'inside' && kind === 'safe' ? 1 : 0, `${label}: re-run`);
        assert.ok(
          Math.abs(run.usage.costUsd - 0.06) < 1e-9,
          `${label}: cost counted once per model call (${run.usage.costUsd})`,
        );
        assert.equal(await t.diff(), baselineDiff, `${label}: same diff as the uninterrupted run`);
      } finally {
        await t.cleanup();
      }
    }
  });

  it('two processes racing to resume the same run: exactly one wins, 20 times out of 20', async () => {
    for (let round = 0; round < 20; round++) {
      const t = await setup();
      try {
        const call = 1 + ((round * 7) % CALLS);
        const killed = await t.sy(['run'], { CRASH_AT: `${call}:after` });
        assert.equal(killed.signal, 'SIGKILL');
        const [a, b] = await Promise.all([t.sy(['resume']), t.sy(['resume'])]);
        const winners = [a, b].filter((r) => /resumed t1\.1/.test(r.stdout));
        assert.equal(winners.length, 1, `round ${round}: ${a.stdout} / ${b.stdout}`);
        const journal = (await readFile(join(t.repo.dir, '.switchyard', 'runs', 't1.1', 'journal.jsonl'), 'utf8'))
          .split('\n')
          .filter((l) => l.includes('"type":"resumed"'));
        assert.equal(journal.length, 1, `round ${round}: one resume in the journal`);
        const state = await t.readState();
        assert.equal(state.tasks[0].state, 'DONE');
        for (let i = 1; i <= STEPS; i++) assert.equal(t.count(`never-${i}`), 1);
      } finally {
        await t.cleanup();
      }
    }
  });
});

describe('lane modules need a trusted workspace', function () {
  this.timeout(60_000);
  it("an untrusted repository's lane modules are not loaded, with a warning saying how to trust it", async () => {
    const cli = await buildCliBundle();
    const repo = await makeTempRepo();
    const config = { XDG_CONFIG_HOME: `${repo.dir}-config` };
    try {
      const project = await Project.open(repo.dir, { registry: new LaneRegistry() });
      await project.settings.update((s) => {
        s.laneModules = [LANE];
      });
      const sy = (...args: string[]) =>
        execa('node', [cli, ...args, '--repo', repo.dir], { reject: false, env: config, extendEnv: true });
      const untrusted = await sy('lanes');
      assert.doesNotMatch(untrusted.stdout, /^crash/m);
      assert.match(
        untrusted.stderr,
        /not loading lane modules .*crashLane\.mjs: .* is not a trusted workspace .*Run `switchyard trust`/,
      );
      assert.match((await sy('trust')).stdout, /is trusted/);
      const trusted = await sy('lanes');
      assert.match(trusted.stdout, /^crash\s+(yes|no)\s+api/m);
      assert.match(trusted.stderr, /loading lane module .* it runs code from this repository/);
      await sy('trust', '--revoke');
      assert.doesNotMatch((await sy('lanes')).stdout, /^crash/m);
    } finally {
      await repo.cleanup();
      await rm(config.XDG_CONFIG_HOME, { recursive: true, force: true });
      await rm(join(cli, '..'), { recursive: true, force: true });
    }
  });
});
