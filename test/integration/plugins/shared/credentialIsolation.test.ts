import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FAKE_KEYS, cliLaneProject } from '../../../helpers/cliLaneProject';
import { standIn, type StandInCli } from '../../../helpers/cliStandIns';
import { makeTempDir } from '../../../helpers/tempRepo';

/** Cloud and customer credentials of the parent process that no lane may inherit unasked. */
const PARENT_CREDENTIALS = {
  AWS_PROFILE: 'customer-prod',
  AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKE0000',
  AWS_SECRET_ACCESS_KEY: 'fake/secret/access/key/0000000000000000',
  GOOGLE_APPLICATION_CREDENTIALS: '/secrets/gcp-service-account.json',
  AZURE_CLIENT_SECRET: 'azure-fake-client-secret',
  GITHUB_TOKEN: 'ghp_fakefakefakefakefakefakefakefake0000',
  GH_TOKEN: 'gho_fakefakefakefakefakefakefakefake0000',
};

const LANES: { lane: string; cli: StandInCli; stream: string; keys: Record<string, string> }[] = [
  {
    lane: 'claude-code',
    cli: 'claude',
    stream: 'claude/normal.jsonl',
    keys: { ANTHROPIC_API_KEY: FAKE_KEYS.ANTHROPIC_API_KEY },
  },
  {
    lane: 'codex',
    cli: 'codex',
    stream: 'codex/normal.jsonl',
    keys: { OPENAI_API_KEY: FAKE_KEYS.OPENAI_API_KEY, CODEX_API_KEY: FAKE_KEYS.OPENAI_API_KEY },
  },
  {
    lane: 'cursor-agent',
    cli: 'cursor-agent',
    stream: 'cursor/normal.jsonl',
    keys: { CURSOR_API_KEY: FAKE_KEYS.CURSOR_API_KEY },
  },
];

describe('CLI lanes: credential isolation', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let cleanup: (() => Promise<void>) | undefined;
  const saved: Record<string, string | undefined> = {};
  beforeEach(async () => {
    tmp = await makeTempDir();
    for (const name of [...Object.keys(PARENT_CREDENTIALS), ...Object.keys(FAKE_KEYS)]) saved[name] = process.env[name];
    Object.assign(process.env, PARENT_CREDENTIALS, FAKE_KEYS);
  });
  afterEach(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await cleanup?.();
    await tmp.cleanup();
  });

  async function envSeenBy(
    lane: (typeof LANES)[number],
    settings: Record<string, unknown>,
    tag: string,
  ): Promise<Record<string, string>> {
    const dump = join(tmp.dir, `${lane.lane}-${tag}.env.json`);
    const fake = await standIn(tmp.dir, lane.cli, [[{ dumpEnv: dump }, { replay: lane.stream }]], `${lane.cli}-${tag}`);
    // The project reads the real parent environment: process.env.
    const { repo, project } = await cliLaneProject(
      lane.lane,
      { binary: fake.binary, ...settings },
      { parentEnv: process.env },
    );
    cleanup = repo.cleanup;
    await project.tasks.add({ title: 'show me your env', lane: lane.lane });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    await repo.cleanup();
    return JSON.parse(await readFile(dump, 'utf8')) as Record<string, string>;
  }

  for (const lane of LANES) {
    it(`${lane.lane}: the CLI sees none of the parent's cloud or GitHub credentials, and its resolved vendor key`, async () => {
      const env = await envSeenBy(lane, {}, 'plain');
      assert.deepEqual(
        Object.keys(PARENT_CREDENTIALS).filter((name) => name in env),
        [],
      );
      for (const [name, value] of Object.entries(lane.keys))
        assert.equal(env[name], value, `${name} is passed explicitly`);
      const otherVendors = Object.keys(FAKE_KEYS).filter((name) => !(name in lane.keys));
      assert.deepEqual(
        otherVendors.filter((name) => name in env),
        [],
        "another vendor's key is not passed either",
      );
      assert.equal(env.PATH, process.env.PATH, 'the allowlisted PATH is');
    });
  }

  it('passEnv: ["AWS_PROFILE"] passes exactly that variable', async () => {
    const env = await envSeenBy(LANES[0]!, { passEnv: ['AWS_PROFILE'] }, 'pass');
    assert.deepEqual(
      Object.keys(PARENT_CREDENTIALS).filter((name) => name in env),
      ['AWS_PROFILE'],
    );
    assert.equal(env.AWS_PROFILE, 'customer-prod');
  });

  it("a failing secret command fails the run before the CLI starts, with the command's stderr", async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const fake = await standIn(tmp.dir, 'claude', [[{ replay: 'claude/normal.jsonl' }]]);
    const { repo, project } = await cliLaneProject(
      'claude-code',
      { binary: fake.binary },
      { parentEnv: process.env, attempts: 3 },
    );
    cleanup = repo.cleanup;
    await project.settings.update((s) => {
      s.secretCommands.ANTHROPIC_API_KEY =
        'echo "vault: permission denied for secret/anthropic (token expired)" >&2; exit 3';
    });
    await project.tasks.add({ title: 'needs a key', lane: 'claude-code' });
    await project.runQueue();
    const state = await project.state();
    assert.deepEqual(await fake.invocations(), [], 'the stand-in never ran');
    assert.equal(state.runs.length, 1, 'not retried');
    const run = state.runs[0]!;
    assert.equal(run.failureCode, 'secret-unavailable');
    assert.match(
      run.failureReason!,
      /lane "claude-code" could not get ANTHROPIC_API_KEY: the secret command for ANTHROPIC_API_KEY \(`.*`\) exited with code 3: vault: permission denied for secret\/anthropic \(token expired\)/,
    );
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.ok(!existsSync(run.worktree), 'no worktree was made for a lane that could not start');
  });
});
