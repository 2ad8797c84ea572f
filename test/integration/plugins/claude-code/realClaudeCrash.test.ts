import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { Project } from '../../../../src/core/project/project';
import { registryWithBuiltins } from '../../../../src/lanes/builtinLanes';
import { anthropicServer } from '../../../fixtures/anthropicServer';
import type { ScriptStep } from '../../../fixtures/scriptedModelServer';
import { buildCliBundle } from '../../../helpers/cliBundle';
import { makeTempDir, makeTempRepo } from '../../../helpers/tempRepo';
import { until } from '../../../helpers/until';
import { CLAUDE_VERSION, PASS_ENV, claudeEnv, processesIn, writeTurns } from './realClaudeSetup';

// Fake, assembled from parts so no secret scanner takes it for a real key.
const KEY = ['sk', 'ant', 'test', '0123456789abcdef'].join('-');

describe(`claude-code lane with the real claude ${CLAUDE_VERSION}: SIGKILL of the Switchyard host, then resume`, function () {
  this.timeout(90_000);
  const binary = realpathSync(resolve('node_modules/.bin/claude'));
  let cli: string;
  before(async () => {
    cli = await buildCliBundle();
  });
  after(async () => rm(join(cli, '..'), { recursive: true, force: true }));

  it("the next attempt, in its own worktree, does not resume the killed attempt's session (whose history names that worktree): a new session gets the salvaged work as context, writes in its own worktree, and each call is counted once", async () => {
    const home = await makeTempDir();
    const repo = await makeTempRepo();
    // The first call writes a file; the second hangs (the host is killed meanwhile); the resumed session writes
    // another and ends.
    const script: ScriptStep[] = [
      { turn: {} },
      { hang: true },
      { turn: {} },
      { turn: { text: 'Both files are written.' } },
    ];
    const server = await anthropicServer(script);
    writeTurns(server, script, {
      0: { file: 'first.txt', content: 'before the crash\n' },
      2: { file: 'second.txt', content: 'after the resume\n' },
    });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home.dir,
      ANTHROPIC_API_KEY: KEY,
      XDG_CONFIG_HOME: join(home.dir, 'config'),
      ...claudeEnv(home.dir, server.url, 0),
    };
    const sy = (args: string[]) =>
      execa('node', [cli, ...args, '--repo', repo.dir], { reject: false, env, extendEnv: false });
    const worktree = join(repo.dir, '.switchyard', 'worktrees', 't1.1');
    try {
      const project = await Project.open(repo.dir, { registry: registryWithBuiltins(), parentEnv: env });
      await project.settings.update((s) => {
        s.laneSettings['claude-code'] = { binary, passEnv: PASS_ENV };
        s.retryCaps['claude-code'] = 2;
        (s as { retryBackoff?: unknown }).retryBackoff = { initialMs: 0, coefficient: 2, maxMs: 0 };
      });
      await project.tasks.add({
        title: 'Write two files',
        spec: 'Write first.txt, then second.txt',
        lane: 'claude-code',
      });

      const host = sy(['run']);
      await until('the second API call (which hangs)', () => server.requests.length >= 2, 30_000);
      // …and the host has logged the first call's events (it writes them a moment after the CLI prints them).
      const firstEvents = join(repo.dir, '.switchyard', 'runs', 't1.1', 'events.jsonl');
      await until(
        "the first call's tool result in the run's events",
        async () => (await readFile(firstEvents, 'utf8').catch(() => '')).includes('"type":"tool-result"'),
        10_000,
      );
      // …and Claude Code has written the Write call and its result to its own session transcript
      // (CLAUDE_CONFIG_DIR/projects/…/<session>.jsonl), which it flushes on its own schedule: a kill before that is
      // a different (legitimate) case, in which the resumed session cannot know the call.
      const transcripts = join(home.dir, '.claude', 'projects');
      await until(
        "the Write call and its result in Claude Code's session transcript",
        async () => {
          const files = await readdir(transcripts, { recursive: true }).catch(() => [] as string[]);
          for (const file of files.filter((f) => f.endsWith('.jsonl'))) {
            const text = await readFile(join(transcripts, file), 'utf8').catch(() => '');
            if (text.includes('"tool_use_id":"toolu_0_0"')) return true;
          }
          return false;
        },
        15_000,
      );
      host.kill('SIGKILL');
      const killed = await host;
      assert.equal(killed.signal, 'SIGKILL');
      // Ending the dead host's CLI is the job of the process supervision (issue 19, item 1); the test makes sure it
      // is gone.
      const leftovers = processesIn(worktree);
      for (const pid of leftovers) process.kill(pid, 'SIGKILL');
      await until("the killed host's CLI to be gone", () => processesIn(worktree).length === 0, 10_000);

      const resumed = await sy(['run']);
      assert.equal(resumed.exitCode, 0, `${resumed.stdout}\n${resumed.stderr}`);
      const state = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
      const [first, second] = state.runs;
      assert.equal(state.tasks[0].state, 'DONE', second?.failureReason);
      assert.equal(first.failureCode, 'interrupted');
      assert.match(first.sessionId, /^[0-9a-f-]{36}$/);
      assert.equal(second.resumeFrom.sessionId, first.sessionId, 'the handle names the earlier session…');
      assert.equal(second.resumeFrom.sessionCwd, first.worktree, '…and the worktree it began in');
      assert.match(second.sessionId, /^[0-9a-f-]{36}$/);
      assert.notEqual(second.sessionId, first.sessionId, 'a new session, in the new worktree');

      // The call that finished before the kill is in the killed run's events as the server served it, 100+20 tokens
      // (counted per message, no result needed): its start's usage on its first content, then the rest at its end
      // (the message_delta), priced by the lane at the model the server names (claude-sonnet-4-5: $3 / $15 per
      // million tokens). The hung call, cut before any content, is not counted.
      const firstLog = (await readFile(join(repo.dir, '.switchyard', 'runs', first.id, 'events.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const paid = firstLog.filter((l) => l.type === 'lane' && l.event.type === 'usage').map((l) => l.event.usage);
      assert.deepEqual(paid, [
        { inputTokens: 100, outputTokens: 1, costUsd: 0.000315 },
        { inputTokens: 0, outputTokens: 19, costUsd: 0.000285 },
      ]);

      // The new session's first request: not the old session's history, the salvaged diff in its prompt.
      assert.equal(server.requests.length, 4);
      const history = JSON.stringify(server.requests[2]!.body.messages);
      assert.doesNotMatch(history, /"id":"toolu_0_0"/, "not the killed session's history");
      assert.match(history, /Its partial work was kept on branch switchyard\/salvage\/t1\.1/);
      assert.match(history, /\+before the crash/);
      assert.ok(!history.includes(`${first.worktree}/`), "nothing names the killed attempt's worktree");
      const log = await readFile(join(repo.dir, '.switchyard', 'runs', second.id, 'events.jsonl'), 'utf8');
      assert.match(log, /does not resume session [0-9a-f-]{36}: it began in [^ ]*t1\.1, not in this worktree/);

      // The second attempt started on the salvaged file and added its own, in its own worktree.
      const diff = await readFile(join(repo.dir, '.switchyard', 'runs', second.id, 'diff.patch'), 'utf8');
      assert.match(diff, /\+before the crash/);
      assert.match(diff, /\+after the resume/);
      assert.ok(!existsSync(join(first.worktree, 'second.txt')), "nothing was written in the killed run's worktree");
      // Its own two calls as the server answered them (100 input tokens each; 20 output each), counted once: the
      // result's totals are the new session's own. Cost at the default model's price as Claude Code reports it
      // ($4 per million input tokens, $20 per million output tokens, claude 2.1.332).
      const { costUsd, ...tokens } = second.usage;
      assert.deepEqual(tokens, { inputTokens: 200, outputTokens: 40 });
      assert.ok(Math.abs(costUsd - (200 * 4e-6 + 40 * 20e-6)) < 1e-12, `cost ${costUsd}`);
    } finally {
      for (const pid of processesIn(repo.dir)) process.kill(pid, 'SIGKILL');
      await server.stop();
      await repo.cleanup();
      await home.cleanup();
    }
  });
});
