import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Project } from '../../../../src/core/project/project';
import { registryWithBuiltins } from '../../../../src/lanes/builtinLanes';
import { responsesServer } from '../../../fixtures/responsesServer';
import type { ScriptStep, ScriptedModelServer } from '../../../fixtures/scriptedModelServer';
import { applyPatch, codexHome, killPids, processesIn } from '../../../helpers/realCodex';
import { makeTempDir, makeTempRepo } from '../../../helpers/tempRepo';
import { until } from '../../../helpers/until';
import { killGroup, runCli, sharedCliBundle } from '../apiLaneHarness';

const KEY = 'sk-test-openai-crash-0123456789abcdef';

/**
 * `switchyard run` with the REAL codex CLI (codex-cli 0.171.0) SIGKILLed
 * while codex waits for the model, then a new `switchyard run` on the same
 * repository. Codex runs in its own process group and may outlive the
 * killed host; the test ends whatever is left in the worktree (as a
 * supervisor would). (A thread another codex process holds, which `codex
 * exec resume` refuses, is covered with codex 0.171.0's own words in
 * test/integration/plugins/shared/sessionResume.test.ts: the engine no longer
 * resumes a thread in another worktree, so the refusal needs a resume in the
 * same one.)
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
    await project.settings.update((s) => {
      s.defaultLane = 'codex';
      s.laneSettings.codex = codex.settings;
      s.retryCaps.codex = 3;
      s.leaseMs = 60_000;
      (s as { retryBackoff?: unknown }).retryBackoff = { initialMs: 0, coefficient: 2, maxMs: 0 };
    });
    await project.tasks.add({ title: 'Write both parts', lane: 'codex' });

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

  it("the next run does not resume the killed run's thread (it began in that run's worktree): a new thread gets the salvaged work; the work of both is in the change; every completed call is counted once", async () => {
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
    const [killed, next] = s.runs;
    assert.equal(s.tasks[0].state, 'DONE', s.tasks[0].failureReason);
    assert.deepEqual(
      s.runs.map((r: { state: string }) => r.state),
      ['FAILED', 'SUCCEEDED'],
    );
    assert.equal(next.resumeFrom.sessionId, t.thread);
    assert.equal(next.resumeFrom.sessionCwd, t.worktree);
    assert.notEqual(next.sessionId, t.thread, 'a new thread');

    // The server: the new thread's first request carries the salvaged diff, not the old thread's history.
    assert.equal(t.server.requests.length, 4);
    const fresh = t.server.requests[2]!;
    assert.equal(fresh.headers['thread-id'], next.sessionId);
    const prompt = JSON.stringify(fresh.body.input);
    assert.doesNotMatch(prompt, /"call_id":"call_0_0"/, "not the old thread's history");
    assert.match(prompt, /Its partial work was kept on branch switchyard\/salvage\/t1\.1/);
    assert.match(prompt, /\+\+\+ b\/part1\.txt\\n@@ .* @@\\n\+one/);

    const diff = await t.project.runs.diff(next.id);
    assert.match(diff, /\+\+\+ b\/part1\.txt\n@@ .* @@\n\+one/);
    assert.match(diff, /\+\+\+ b\/part2\.txt\n@@ .* @@\n\+two/);
    assert.equal(killed.salvage?.files, 1, "the killed run's part1.txt was salvaged");

    // The killed process reported nothing of its turn (codex reports usage when a turn completes); its completed call
    // is in the old thread's record and is counted once, by the next run, with the new thread's two calls.
    assert.deepEqual(next.usage, { inputTokens: 1_000 + 1_500 + 1_600, outputTokens: 50 + 30 + 10, costUsd: 0 });
    assert.equal(killed.usage ?? null, null);
  });
});
