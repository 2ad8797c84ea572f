import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LaneReadiness } from '../../../../src/api';
import { checkLaneReadiness } from '../../../../src/core/lanes/laneReadiness';
import { envSecretSource } from '../../../../src/core/secrets/secretSource';
import { registryWithBuiltins } from '../../../../src/lanes/builtinLanes';
import { anthropicServer } from '../../../fixtures/anthropicServer';
import type { ScriptedModelServer } from '../../../fixtures/scriptedModelServer';
import { cliLaneProject } from '../../../helpers/cliLaneProject';
import { runCli } from '../../../helpers/runCli';
import { makeTempDir, makeTempRepo } from '../../../helpers/tempRepo';
import { CLAUDE_VERSION, PASS_ENV, claudeEnv } from './realClaudeSetup';

/** A key only the scripted server sees, built from parts. */
const TEST_KEY = ['sk-ant', 'test', 'signin-0123456789'].join('-');
/** A claude.ai login as Claude Code stores it ($HOME/.claude/.credentials.json); the token only the server sees. */
const TEST_TOKEN = ['oauth', 'test', 'token-0123456789'].join('-');

async function signIn(home: string): Promise<void> {
  await mkdir(join(home, '.claude'), { recursive: true });
  const login = {
    claudeAiOauth: {
      accessToken: TEST_TOKEN,
      refreshToken: 'refresh-test',
      expiresAt: 9_999_999_999_999,
      scopes: ['user:inference'],
      subscriptionType: 'pro',
    },
  };
  await writeFile(join(home, '.claude', '.credentials.json'), JSON.stringify(login), { mode: 0o600 });
}

const problemsOf = (r: LaneReadiness) => (r.ready ? [] : (r.problems ?? []));

/**
 * Claude Code's readiness with the real CLI (CLAUDE_VERSION) and a throwaway HOME: a signed-in CLI is enough, no key
 * needed; not signed in and no key is one problem with two fixes (Sign In in a terminal, Set API Key); a stored key
 * makes it ready without asking the CLI. The sign-in status is read from the CLI's own files (`claude auth status`),
 * no model call.
 */
describe(`claude-code readiness with the real claude ${CLAUDE_VERSION}: signed in, or a key`, function () {
  this.timeout(60_000);
  const binary = realpathSync(resolve('node_modules/.bin/claude'));
  const lane = registryWithBuiltins().require('claude-code');
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let home: string;
  let server: ScriptedModelServer | undefined;

  beforeEach(async () => {
    tmp = await makeTempDir();
    home = join(tmp.dir, 'home');
    await mkdir(home);
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await tmp.cleanup();
  });

  const check = (settings: Record<string, unknown>, env: NodeJS.ProcessEnv) =>
    checkLaneReadiness(lane, { settings, secrets: envSecretSource(env), parentEnv: env });

  /** A `claude` that records each call's arguments in `calls`, then runs the real CLI. */
  async function recordingClaude(): Promise<{ path: string; calls: () => Promise<string[]> }> {
    const log = join(tmp.dir, 'calls.log');
    const path = join(tmp.dir, 'recording-claude');
    await writeFile(path, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${binary}' "$@"\n`);
    await chmod(path, 0o755);
    const calls = async () =>
      (await readFile(log, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => l.trim());
    return { path, calls };
  }

  /** A folder holding only `claude` (the real one), for PATH. */
  async function claudeOnPath(): Promise<string> {
    const bin = join(tmp.dir, 'bin');
    await mkdir(bin);
    await symlink(binary, join(bin, 'claude'));
    return bin;
  }

  it('not signed in and no key: not ready, one problem in plain words, fixes Sign In (a terminal) and Set API Key', async () => {
    const claude = await recordingClaude();
    const r = await check({ binary: claude.path }, { PATH: process.env.PATH, HOME: home });
    assert.equal(r.ready, false, JSON.stringify(r));
    assert.equal(problemsOf(r).length, 1, JSON.stringify(r));
    const [problem] = problemsOf(r);
    assert.equal(
      problem?.reason,
      `lane "claude-code": Claude Code is not signed in and no ANTHROPIC_API_KEY is set: sign in (\`${claude.path} auth login\` in a terminal) or set ANTHROPIC_API_KEY for the lane`,
    );
    assert.deepEqual(problem?.fixes, [
      { kind: 'terminal', label: 'Sign In', argv: [claude.path, 'auth', 'login'] },
      { kind: 'secret', secret: 'ANTHROPIC_API_KEY' },
    ]);
    assert.deepEqual(!r.ready && r.fix, problem?.fixes?.[0], 'fix is the first problem’s first fix');
    assert.deepEqual(await claude.calls(), ['auth status --json'], 'asked once, the status only');
  });

  it('signed in (a claude.ai login in $HOME/.claude) with no key stored: ready', async () => {
    await signIn(home);
    const bin = await claudeOnPath();
    const r = await check({}, { PATH: bin, HOME: home });
    assert.deepEqual(r, { ready: true, detail: join(bin, 'claude') });
  });

  it('a key stored: ready without running the CLI (which is asked when there is none)', async () => {
    const claude = await recordingClaude();
    await signIn(home);
    assert.deepEqual(await check({ binary: claude.path }, { PATH: '', HOME: home }), {
      ready: true,
      detail: claude.path,
    });
    assert.deepEqual(await claude.calls(), ['auth status --json'], 'no key: the CLI is asked');
    const r = await check({ binary: claude.path }, { PATH: '', HOME: home, ANTHROPIC_API_KEY: TEST_KEY });
    assert.deepEqual(r, { ready: true, detail: claude.path });
    assert.deepEqual(await claude.calls(), ['auth status --json'], 'a key: the CLI is not asked');
  });

  it('all problems at once: a setting that does not parse, and the sign-in the binary setting still lets it ask', async () => {
    const r = await check({ binary, extraArgs: '--verbose', modle: 'x' }, { PATH: '', HOME: home });
    assert.deepEqual(
      problemsOf(r).map((p) => [p.reason.replace(/:.*/, ''), p.fixes?.map((f) => f.kind)]),
      [
        ['lane "claude-code" is misconfigured', ['setting']],
        ['lane "claude-code" is misconfigured', ['setting']],
        ['lane "claude-code"', ['terminal', 'secret']],
      ],
      JSON.stringify(r),
    );
    assert.match(problemsOf(r)[0]!.reason, /extraArgs: "extraArgs" must be a list of strings/);
    assert.match(problemsOf(r)[1]!.reason, /modle/);
    assert.match(problemsOf(r)[2]!.reason, /Claude Code is not signed in/);
    // No claude to ask: the misconfiguration and the missing binary, both.
    const missing = await check({ extraArgs: '--verbose' }, { PATH: tmp.dir, HOME: home });
    assert.deepEqual(
      problemsOf(missing).map((p) => p.fixes),
      [[{ kind: 'setting', setting: 'extraArgs' }], [{ kind: 'setting', setting: 'binary' }]],
    );
    assert.match(problemsOf(missing)[1]!.reason, /cannot find the Claude Code CLI: `claude` is not on PATH/);
  });

  it('`switchyard lanes` lists each problem and the sign-in command to run', async () => {
    const bin = await claudeOnPath();
    const repo = await makeTempRepo();
    try {
      const env = { PATH: bin, HOME: home };
      const listed = await runCli(['lanes'], { cwd: repo.dir, env });
      assert.equal(listed.code, 0, listed.err);
      assert.match(listed.out, /^claude-code\s+no\s/m);
      assert.match(
        listed.out,
        new RegExp(
          `\\n  claude-code: lane "claude-code": Claude Code is not signed in and no ANTHROPIC_API_KEY is set: .*\\n    Sign In: ${bin}/claude auth login\\n`,
        ),
      );
      await signIn(home);
      const after = await runCli(['lanes', '--json'], { cwd: repo.dir, env });
      const lanes = JSON.parse(after.out) as { id: string; readiness: LaneReadiness }[];
      assert.deepEqual(lanes.find((l) => l.id === 'claude-code')?.readiness, {
        ready: true,
        detail: join(bin, 'claude'),
      });
    } finally {
      await repo.cleanup();
    }
  });

  it('a run without a stored key uses the CLI’s own sign-in: the token goes to the server, no key is sent', async () => {
    await signIn(home);
    server = await anthropicServer([{ turn: { text: 'Signed-in run.' } }]);
    const env = claudeEnv(home, server.url, 0);
    const saved = { ...process.env };
    Object.assign(process.env, env); // passEnv reads the host's own environment
    try {
      const { repo, project } = await cliLaneProject(
        'claude-code',
        { binary, passEnv: PASS_ENV },
        { parentEnv: { PATH: process.env.PATH, HOME: home } },
      );
      try {
        const statuses = await project.lanes.statuses();
        assert.equal(statuses.find((s) => s.manifest.id === 'claude-code')?.readiness.ready, true);
        await project.tasks.add({ title: 'Say hello', spec: 'Say hello', lane: 'claude-code' });
        await project.runQueue();
        const run = (await project.state()).runs[0]!;
        assert.equal(run.state, 'SUCCEEDED', run.failureReason);
        assert.equal(run.summary, 'Signed-in run.');
        assert.equal(server.requests.length, 1);
        const headers = server.requests[0]!.headers;
        assert.equal(headers.authorization, `Bearer ${TEST_TOKEN}`);
        assert.equal(headers['x-api-key'], undefined, 'no key, not even an empty one');
      } finally {
        await repo.cleanup();
      }
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});
