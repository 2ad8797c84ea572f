import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Project } from '../../../../src/core/project';
import { registryWithBuiltins } from '../../../../src/lanes/builtinLanes';
import { responsesServer } from '../../../fixtures/responsesServer';
import type { ScriptStep, ScriptedModelServer } from '../../../fixtures/scriptedModelServer';
import { execa } from 'execa';
import { CODEX_BIN, applyPatch, codexHome, killPids, processesIn } from '../../../helpers/realCodex';
import { makeTempDir, makeTempRepo } from '../../../helpers/tempRepo';
import { until } from '../../../helpers/until';
import { killGroup, runCli, sharedCliBundle } from '../apiLaneHarness';

const KEY = 'sk-test-openai-crash-0123456789abcdef';

/**
 * `switchyard run` with the REAL codex CLI (codex-cli 0.171.0) SIGKILLed
 * while codex waits for the model, then a new `switchyard run` on the same
 * repository. Codex runs in its own process group and may outlive the
 * killed host; the tests end whatever is left in the worktree (as a
 * supervisor would). In the second, another codex process holds the thread,
 * so `codex exec resume` refuses it.
 */
describe('codex lane (real codex): SIGKILL of the Switchyard host, then a new run', function () {
  this.timeout(90_000);
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let repo: Awaited<ReturnType<typeof makeTempRepo>> | undefined;
  let server: ScriptedModelServer | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    if (repo) killPids(await processesIn(repo.dir));
    await server?.stop();
    await repo?.cleanup();
    await tmp.cleanup();
    repo = undefined;
    server = undefined;
  });

  /**
   * Run 1 writes part1.txt, then is SIGKILLed while its next model call hangs; `between` are steps for requests before
   * the second run's.
   */
  async function killedMidTurn(between: ScriptStep[] = []) {
    const cli = await sharedCliBundle();
    server = await responsesServer([
      {
        turn: { text: 'Writing part one.', tools: [applyPatch('part1.txt', 'one')] },
        usage: { input: 1_000, output: 50 },
      },
      { hang: true },
      ...between,
      {
        turn: { text: 'Writing part two.', tools: [applyPatch('part2.txt', 'two')] },
        usage: { input: 1_500, output: 30 },
      },
      { turn: { text: 'Both parts are written.' }, usage: { input: 1_600, output: 10 } },
    ]);
    const codex = await codexHome(tmp.dir, server.url);
    repo = await makeTempRepo();
    const project = await Project.open(repo.dir, { registry: registryWithBuiltins(), parentEnv: codex.env(KEY) });
    await project.updateSettings((s) => {
      s.defaultLane = 'codex';
      s.laneSettings.codex = codex.settings;
      s.retryCaps.codex = 3;
      s.leaseMs = 60_000;
      (s as { retryBackoff?: unknown }).retryBackoff = { initialMs: 0, coefficient: 2, maxMs: 0 };
    });
    await project.addTask({ title: 'Write both parts', lane: 'codex' });

    const first = runCli(cli, repo.dir, ['run'], codex.env(KEY));
    server.onRequest = (request) => {
      if (request.index === 1) setImmediate(() => killGroup(first));
    };
    assert.equal((await first).signal, 'SIGKILL');
    server.onRequest = undefined;
    const thread = String(server.requests[0]!.headers['thread-id']);
    const worktree = join(repo.dir, '.switchyard', 'worktrees', 't1.1');
    return { cli, codex, project, thread, worktree, repoDir: repo.dir, server };
  }

  async function state(repoDir: string) {
    return JSON.parse(await readFile(join(repoDir, '.switchyard', 'state.json'), 'utf8'));
  }

  it(
    "the next run continues codex's thread with `exec resume`; the work of both is in the change; every " +
      'completed call is counted once',
    async () => {
      const t = await killedMidTurn();
      // What a supervisor does when its owner dies: the orphaned codex ends (found by its working directory).
      killPids(await processesIn(t.worktree));
      await until(
        "the killed host's codex to be gone",
        async () => (await processesIn(t.worktree)).length === 0,
        20_000,
        25,
      );
      const second = await runCli(t.cli, t.repoDir, ['run'], t.codex.env(KEY));
      assert.equal(second.exitCode, 0, `${second.stdout}\n${second.stderr}`);
      const s = await state(t.repoDir);
      const [killed, resumed] = s.runs;
      assert.equal(s.tasks[0].state, 'DONE', s.tasks[0].failureReason);
      assert.deepEqual(
        s.runs.map((r: { state: string }) => r.state),
        ['FAILED', 'SUCCEEDED'],
      );
      assert.equal(resumed.resumeFrom.sessionId, t.thread);
      assert.equal(resumed.sessionId, t.thread);

      // The server: the resumed turn is on the same thread and carries the first run's call and its result.
      assert.equal(t.server.requests.length, 4);
      const resumedCall = t.server.requests[2]!;
      assert.equal(resumedCall.headers['thread-id'], t.thread);
      const history = JSON.stringify(resumedCall.body.input);
      assert.match(history, /"call_id":"call_0_0"/);
      assert.match(history, /Success\. Updated the following files:\\nA part1\.txt/);

      const diff = await t.project.diff(resumed.id);
      assert.match(diff, /\+\+\+ b\/part1\.txt\n@@ .* @@\n\+one/);
      assert.match(diff, /\+\+\+ b\/part2\.txt\n@@ .* @@\n\+two/);
      assert.equal(killed.salvage?.files, 1, "the killed run's part1.txt was salvaged");

      // Codex reports the thread's running total on a resumed thread, so the call the killed run completed is counted
      // here, once.
      assert.deepEqual(resumed.usage, { inputTokens: 1_000 + 1_500 + 1_600, outputTokens: 50 + 30 + 10, costUsd: 0 });
      assert.equal(killed.usage ?? null, null);
    },
  );

  it(
    '"already has an active writer": another codex process holds the thread, so the next run starts a fresh ' +
      'session with the salvaged work',
    async () => {
      const t = await killedMidTurn([{ hang: true }]);
      // The killed host's codex may still hold the thread (it outlives the host unless something ends it); either way a
      // codex of this test resumes the thread and holds it, waiting for the model, while the next run starts.
      killPids(await processesIn(t.worktree));
      await until(
        "the killed host's codex to be gone",
        async () => (await processesIn(t.worktree)).length === 0,
        20_000,
        25,
      );
      const holderDir = join(tmp.dir, 'holder');
      await mkdir(holderDir);
      const holder = execa(
        CODEX_BIN,
        ['exec', '--json', '--sandbox', 'read-only', '--skip-git-repo-check', 'resume', t.thread, '-'],
        {
          cwd: holderDir,
          env: t.codex.env(KEY),
          extendEnv: false,
          input: 'hold the thread',
          reject: false,
          detached: true,
        },
      );
      try {
        await until(
          'the holder to call the model',
          async () => t.server.requests.length === 3 || holder.exitCode !== null,
          20_000,
          25,
        );
        if (t.server.requests.length !== 3) assert.fail(`the holder exited: ${(await holder).stderr}`);
        assert.equal(t.server.requests[2]!.headers['thread-id'], t.thread);
        const second = await runCli(t.cli, t.repoDir, ['run'], t.codex.env(KEY));
        assert.equal(second.exitCode, 0, `${second.stdout}\n${second.stderr}`);
        const s = await state(t.repoDir);
        const resumed = s.runs[1];
        assert.equal(s.tasks[0].state, 'DONE', s.tasks[0].failureReason);
        assert.deepEqual(
          s.runs.map((r: { state: string }) => r.state),
          ['FAILED', 'SUCCEEDED'],
          'the refusal cost no attempt: the same run went on in a fresh session',
        );
        assert.equal(resumed.resumeFrom.sessionId, t.thread);
        assert.notEqual(resumed.sessionId, t.thread, 'a new thread');

        const events = (await readFile(join(t.repoDir, '.switchyard', 'runs', resumed.id, 'events.jsonl'), 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        const progress = events
          .filter((e) => e.type === 'lane' && e.event?.type === 'progress')
          .map((e) => String(e.event.message));
        assert.ok(
          progress.some(
            (m) =>
              m.startsWith(`codex could not resume session ${t.thread} (`) &&
              m.includes(`thread ${t.thread} already has an active writer (code -32600)`) &&
              m.endsWith('starting a new session with the salvaged work as context'),
          ),
          JSON.stringify(progress),
        );

        // The fresh thread's first request: a new thread id, and the salvaged diff in the prompt.
        const fresh = t.server.requests[3]!;
        assert.notEqual(fresh.headers['thread-id'], t.thread);
        assert.equal(fresh.headers['thread-id'], resumed.sessionId);
        const prompt = JSON.stringify(fresh.body.input);
        assert.match(prompt, /Its partial work was kept on branch switchyard\/salvage\/t1\.1/);
        assert.match(prompt, /\+\+\+ b\/part1\.txt\\n@@ .* @@\\n\+one/);
        assert.doesNotMatch(prompt, /"call_id":"call_0_0"/, "not the old thread's history");

        const diff = await t.project.diff(resumed.id);
        assert.match(diff, /\+one/);
        assert.match(diff, /\+two/);
        assert.deepEqual(resumed.usage, { inputTokens: 1_500 + 1_600, outputTokens: 30 + 10, costUsd: 0 });
      } finally {
        if (holder.pid)
          try {
            process.kill(-holder.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        await holder;
      }
    },
  );
});
