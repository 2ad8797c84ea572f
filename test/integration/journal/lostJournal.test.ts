import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildCliBundle } from '../../helpers/cliBundle';
import { crashProject } from '../../helpers/crashProject';

/**
 * A run of a `resume: 'call'` lane killed mid-run (real SIGKILL of the CLI)
 * whose journal is then lost or damaged is never restarted from scratch:
 * `switchyard resume` fails it (`journal-missing` naming the file, or
 * `journal-corrupt`), runs no call again, and exits non-zero.
 */
describe('a resumed run whose journal is lost (real SIGKILL, real processes)', function () {
  this.timeout(180_000);
  let cli: string;
  before(async () => {
    cli = await buildCliBundle();
  });
  after(async () => rm(join(cli, '..'), { recursive: true, force: true }));

  const damage = {
    deleted: (file: string) => rmSync(file),
    // A directory where the file was: it cannot be read (EISDIR), whoever runs the test (root reads a chmod 000 file).
    unreadable: (file: string) => {
      rmSync(file);
      mkdirSync(file);
    },
    corrupt: (file: string) => appendFileSync(file, 'not json\n{"v":1}\n'),
  };
  for (const [what, harm] of Object.entries(damage)) {
    it(`journal ${what}: the never-calls that ran are not run again, the run fails, resume exits 1`, async () => {
      const t = await crashProject(cli);
      try {
        // Call 6 is step 2's `never` tool: killed once it returned, so never-1 and never-2 happened.
        const killed = await t.sy(['run'], { CRASH_AT: '6:after' });
        assert.equal(killed.signal, 'SIGKILL', killed.stderr);
        assert.equal(t.count('never-2'), 1);
        const journal = join(t.runDir('t1.1'), 'journal.jsonl');
        harm(journal);

        const resumed = await t.sy(['resume']);
        assert.equal(resumed.exitCode, 1, `resume exits non-zero: ${resumed.stdout}\n${resumed.stderr}`);
        assert.match(resumed.stderr, /resumed run\(s\) failed: t1\.1 \(journal-(missing|corrupt)\)/);
        for (let i = 1; i <= 6; i++)
          assert.equal(
            t.count(`never-${i}`),
            i <= 2 ? 1 : 0,
            `never-${i}: ${i <= 2 ? 'ran once, not again' : 'never reached'}`,
          );
        assert.equal(t.count('model-1'), 1, 'no call was repeated');

        const state = await t.readState();
        assert.equal(state.runs.length, 1, 'no new attempt from scratch');
        const run = state.runs[0];
        assert.equal(run.state, 'FAILED');
        assert.equal(state.tasks[0].state, 'FAILED');
        if (what === 'corrupt') {
          assert.equal(run.failureCode, 'journal-corrupt');
          assert.ok(run.failureReason.includes(`${journal}:`), run.failureReason);
        } else {
          assert.equal(run.failureCode, 'journal-missing');
          assert.ok(run.failureReason.includes(journal), `the reason names the file: ${run.failureReason}`);
          assert.match(run.failureReason, /not restarted from scratch/);
        }
        assert.match(resumed.stdout, /✖ t1\.1 · FAILED .*reason: .*journal/);
        if (what !== 'corrupt')
          assert.ok(
            !state.breakers.crash?.recent.length,
            `a lost journal says nothing about the lane: ${JSON.stringify(state.breakers.crash)}`,
          );
      } finally {
        await t.cleanup();
      }
    });
  }

  it('`switchyard run` also exits 1 when a run it resumed failed on a lost journal', async () => {
    const t = await crashProject(cli);
    try {
      const killed = await t.sy(['run'], { CRASH_AT: '3:after' });
      assert.equal(killed.signal, 'SIGKILL');
      rmSync(join(t.runDir('t1.1'), 'journal.jsonl'));
      const run = await t.sy(['run']);
      assert.equal(run.exitCode, 1, run.stdout);
      assert.match(run.stderr, /resumed run\(s\) failed: t1\.1 \(journal-missing\)/);
      assert.equal(t.count('never-1'), 1, 'the never-call ran once');
      assert.equal(t.count('model-1'), 1);
    } finally {
      await t.cleanup();
    }
  });
});
