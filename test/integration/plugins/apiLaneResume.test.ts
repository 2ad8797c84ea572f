import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_LANES, apiLaneProject, killGroup, runCli, sharedCliBundle, toolResultsIn } from './apiLaneHarness';
import { until } from '../../helpers/until';

const [anthropic] = API_LANES;

/**
 * The anthropic lane in the real CLI, SIGKILLed twice mid-turn — once while a
 * `never` command runs, once while a model response streams — and resumed
 * each time by a new `switchyard resume` process.
 */
describe('anthropic lane killed mid-turn (real SIGKILL) and resumed', function () {
  this.timeout(60_000);

  it('completed calls are not re-sent, the interrupted command is reported uncertain, cost is counted once', async () => {
    const cli = await sharedCliBundle();
    const slow = 'echo started >> started.txt; echo $$ > command.pid; exec sleep 20';
    const t = await apiLaneProject(anthropic, [
      {
        turn: {
          text: 'Writing notes, then the slow step.',
          tools: [
            { name: 'write_file', input: { path: 'notes.txt', content: 'one\n' } },
            { name: 'run_command', input: { command: slow } },
          ],
        },
        usage: { input: 1_000, output: 100 },
      },
      { hang: true },
      {
        turn: { tools: [{ name: 'edit_file', input: { path: 'notes.txt', search: 'one', replace: 'two' } }] },
        usage: { input: 1_100, output: 60 },
      },
      {
        turn: { tools: [{ name: 'finish', input: { summary: 'notes say two' } }] },
        usage: { input: 1_200, output: 30 },
      },
    ]);
    try {
      await t.project.settings.update((s) => {
        s.leaseMs = 60_000;
      });
      await t.project.tasks.add({ title: 'notes' });
      const env = { ANTHROPIC_API_KEY: anthropic.key };
      const worktree = join(t.repo.dir, '.switchyard', 'worktrees', 't1.1');

      // 1. Killed while the `never` command runs (after it started).
      const first = runCli(cli, t.repo.dir, ['run'], env);
      await until('the command to start', () => existsSync(join(worktree, 'started.txt')), 15_000);
      killGroup(first);
      assert.equal((await first).signal, 'SIGKILL');

      // 2. Resumed; killed again while the next model response streams.
      let second: ReturnType<typeof runCli> | undefined;
      t.server.onRequest = (request) => {
        if (request.index === 1) setImmediate(() => killGroup(second!));
      };
      second = runCli(cli, t.repo.dir, ['resume'], env);
      const secondResult = await second;
      assert.equal(
        secondResult.signal,
        'SIGKILL',
        `the resume was killed mid-stream (${secondResult.stdout} ${secondResult.stderr})`,
      );

      // 3. Resumed again: finishes.
      t.server.onRequest = undefined;
      const third = await runCli(cli, t.repo.dir, ['resume'], env);
      assert.equal(third.exitCode, 0, third.stderr);
      assert.match(third.stdout, /resumed t1\.1/);

      const state = JSON.parse(await readFile(join(t.repo.dir, '.switchyard', 'state.json'), 'utf8'));
      assert.equal(state.tasks[0].state, 'DONE', state.tasks[0].failureReason);
      const run = state.runs[0];
      assert.equal(state.runs.length, 1, 'resumed in place, no new attempt');
      assert.equal(run.resumes, 2);

      // The server: turn 1 once, turn 2 twice (the interrupted call re-sent as it was), turn 3 once.
      const bodies = t.server.requests.map((r) => r.body);
      assert.equal(bodies.length, 4);
      assert.deepEqual(bodies[2], bodies[1], 'the interrupted model call was re-sent unchanged');
      assert.equal(
        bodies.filter((b) => JSON.stringify(b) === JSON.stringify(bodies[0])).length,
        1,
        'the completed first call was not re-sent',
      );

      // The model was told the command may or may not have run, and the write (safe, completed) happened once.
      const [written, command] = toolResultsIn(bodies[1]);
      assert.match(written!.text, /^created notes\.txt/);
      assert.match(
        command!.text,
        /^uncertain: this call \(run_command\) may have executed before the run was interrupted; verify with idempotency key sy-[0-9a-f]{24}.*check whether it took effect/,
      );
      assert.equal(await t.file('started.txt'), 'started\n', 'the interrupted command was not run again');
      const journal = (await readFile(join(t.repo.dir, '.switchyard', 'runs', 't1.1', 'journal.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(journal.filter((e) => e.type === 'intent' && e.name === 'write_file').length, 1);
      assert.equal(journal.filter((e) => e.type === 'intent' && e.name === 'run_command').length, 1);
      assert.equal(journal.filter((e) => e.type === 'resumed').length, 2);

      // Both resumes count: the first read back 2 calls and reported the command uncertain; the last read back 3 and
      // re-sent the interrupted model call; nothing was re-run.
      assert.deepEqual(run.resumeCounts, { replayed: 5, resent: 1, rerun: 0, uncertain: 1 });
      // Cost: each completed response once — (3300 in × $3 + 190 out × $15) per million tokens.
      assert.deepEqual({ i: run.usage.inputTokens, o: run.usage.outputTokens }, { i: 3_300, o: 190 });
      assert.ok(Math.abs(run.usage.costUsd - 0.01275) < 1e-12, `cost ${run.usage.costUsd}`);
      assert.match(await t.project.runs.diff('t1.1'), /\+two/);
    } finally {
      // The killed CLI's command ran in its own process group and outlived it, as it would in real life: stop it.
      const pid = await readFile(join(t.repo.dir, '.switchyard', 'worktrees', 't1.1', 'command.pid'), 'utf8').catch(
        () => '',
      );
      if (Number(pid) > 0)
        try {
          process.kill(-Number(pid), 'SIGKILL');
        } catch {
          /* gone */
        }
      await t.cleanup();
    }
  });
});
