import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { checkLaneReadiness, ReadinessCache, READINESS_TTL_MS } from '../../../src/core/lanes/laneReadiness';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { envSecretSource } from '../../../src/core/secrets/secretSource';
import { registryWithBuiltins } from '../../../src/lanes/builtinLanes';
import { unknownLaneIds } from '../../../src/core/lanes/unknownLaneIds';
import { freePort } from '../../helpers/freePort';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';
import { runCli } from '../../helpers/runCli';
import type { LanePlugin } from '../../../src/api';

const builtins = registryWithBuiltins();
const check = (
  lane: string,
  settings: Record<string, unknown>,
  env: NodeJS.ProcessEnv = { PATH: '', ANTHROPIC_API_KEY: 'k' },
) => checkLaneReadiness(builtins.require(lane), { settings, secrets: envSecretSource(env), parentEnv: env });

describe('lane readiness', () => {
  it('the command lane without its "command" setting is not ready, naming the setting and the fix', async () => {
    const r = await check('command', {});
    assert.equal(r.ready, false);
    assert.deepEqual(!r.ready && r.fix, { kind: 'setting', setting: 'command' });
    assert.match(!r.ready ? r.reason : '', /needs the "command" setting: set switchyard\.lanes → command → command/);
    assert.deepEqual(await check('command', { command: './agent.sh' }), { ready: true });
  });

  it('a lane whose required key is not set is not ready (fix: Set API Key); set in the environment it is', async () => {
    const r = await check('anthropic', {}, {});
    assert.deepEqual(!r.ready && r.fix, { kind: 'secret', secret: 'ANTHROPIC_API_KEY' });
    assert.match(!r.ready ? r.reason : '', /needs ANTHROPIC_API_KEY, which is not set: set the ANTHROPIC_API_KEY/);
    assert.deepEqual(await check('anthropic', {}, { ANTHROPIC_API_KEY: 'sk-test' }), { ready: true });
  });

  it('a CLI lane is ready only when its executable is found (PATH, or the binary setting)', async () => {
    const bin = await makeTempDir();
    try {
      const missing = await check('claude-code', {}, { PATH: bin.dir, ANTHROPIC_API_KEY: 'k' });
      assert.equal(missing.ready, false);
      assert.match(!missing.ready ? missing.reason : '', /cannot find the Claude Code CLI: `claude` is not on PATH/);
      assert.deepEqual(!missing.ready && missing.fix, { kind: 'setting', setting: 'binary' });
      await mkdir(join(bin.dir, 'tools'));
      const claude = join(bin.dir, 'claude');
      await writeFile(claude, '#!/bin/sh\nexit 0\n');
      await chmod(claude, 0o755);
      assert.deepEqual(await check('claude-code', {}, { PATH: bin.dir, ANTHROPIC_API_KEY: 'k' }), {
        ready: true,
        detail: claude,
      });
      assert.deepEqual(await check('claude-code', { binary: claude }, { PATH: '', ANTHROPIC_API_KEY: 'k' }), {
        ready: true,
        detail: claude,
      });
      const typo = await check('claude-code', { binaryy: claude }, { PATH: bin.dir, ANTHROPIC_API_KEY: 'k' });
      assert.match(!typo.ready ? typo.reason : '', /is misconfigured/);
    } finally {
      await bin.cleanup();
    }
  });

  it('the openai-compatible lane is ready when its server answers and not when nothing listens', async () => {
    const server = createServer((_req, res) => res.writeHead(401).end('{"error":"no key"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const up = await check('openai-compatible', { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' });
      assert.equal(up.ready, true, JSON.stringify(up));
      const closed = await freePort();
      const down = await check('openai-compatible', { baseUrl: `http://127.0.0.1:${closed}/v1`, model: 'm' });
      assert.equal(down.ready, false);
      assert.match(
        !down.ready ? down.reason : '',
        /cannot reach its server at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/,
      );
      const unset = await check('openai-compatible', { model: 'm' });
      assert.deepEqual(!unset.ready && unset.fix, { kind: 'setting', setting: 'baseUrl' });
    } finally {
      server.close();
    }
  });

  it('a third-party lane without a check is ready; one that throws or hangs is not, with the reason', async () => {
    const registry = new LaneRegistry();
    const manifest = (id: string) => ({
      id,
      displayName: id,
      version: '1.0.0',
      apiVersion: 1,
      kind: 'command' as const,
      defaultRetryCap: 1,
      capabilities: { resume: 'none' as const, streaming: false, tools: false },
    });
    const run: LanePlugin['run'] = async () => ({ status: 'succeeded' });
    registry.register({ manifest: manifest('plain'), run });
    registry.register({ manifest: manifest('throws'), run, readiness: async () => Promise.reject(new Error('no')) });
    registry.register({
      manifest: manifest('hangs'),
      run,
      readiness: () => new Promise(() => undefined),
    });
    const input = { settings: {}, secrets: envSecretSource({}), parentEnv: {} };
    assert.deepEqual(await checkLaneReadiness(registry.require('plain'), input), { ready: true });
    const threw = await checkLaneReadiness(registry.require('throws'), input);
    assert.match(!threw.ready ? threw.reason : '', /its readiness check failed: no/);
    const hung = await checkLaneReadiness(registry.require('hangs'), input);
    assert.match(!hung.ready ? hung.reason : '', /did not answer within 3 s/);
  });

  it('answers are cached per lane and settings for a while, then checked again', async () => {
    let now = 0;
    let calls = 0;
    const registry = new LaneRegistry();
    registry.register({
      manifest: {
        id: 'counted',
        displayName: 'Counted',
        version: '1.0.0',
        apiVersion: 1,
        kind: 'command',
        defaultRetryCap: 1,
        capabilities: { resume: 'none', streaming: false, tools: false },
      },
      run: async () => ({ status: 'succeeded' }),
      readiness: async () => ({ ready: ++calls > 1 }) as never,
    });
    const cache = new ReadinessCache(() => now);
    const lane = registry.require('counted');
    const input = { settings: {}, secrets: envSecretSource({}), parentEnv: {} };
    assert.equal((await cache.get(lane, input)).ready, false);
    now += READINESS_TTL_MS - 1;
    assert.equal((await cache.get(lane, input)).ready, false, 'cached');
    assert.equal(calls, 1);
    assert.equal((await cache.get(lane, { ...input, settings: { x: 1 } })).ready, true, 'new settings: checked');
    now += 2;
    await cache.get(lane, input);
    assert.equal(calls, 3, 'expired: checked again');
  });

  it('`switchyard lanes` lists ready lanes first with the reason of each unready one', async () => {
    const repo = await makeTempRepo();
    try {
      const env = { PATH: '', HOME: repo.dir };
      assert.equal((await runCli(['lanes', 'set', 'command', 'command=true'], { cwd: repo.dir, env })).code, 0);
      const listed = await runCli(['lanes'], { cwd: repo.dir, env });
      assert.equal(listed.code, 0, listed.err);
      const rows = listed.out.split('\n').filter((l) => /^\S+\s+(yes|no)\s/.test(l));
      assert.match(rows[0]!, /^command\s+yes\s/, listed.out);
      assert.ok(
        rows.slice(1).every((r) => /^\S+\s+no\s/.test(r)),
        listed.out,
      );
      assert.match(
        listed.out,
        /not ready:\n(.|\n)*anthropic: lane "anthropic" needs ANTHROPIC_API_KEY, which is not set/,
      );
      const json = JSON.parse((await runCli(['lanes', '--json'], { cwd: repo.dir, env })).out) as {
        id: string;
        readiness: { ready: boolean };
      }[];
      assert.equal(json.find((l) => l.id === 'command')?.readiness.ready, true);
      assert.equal(json.find((l) => l.id === 'codex')?.readiness.ready, false);
    } finally {
      await repo.cleanup();
    }
  });
});

describe('every problem at once', () => {
  it('a lane missing two settings lists both; `switchyard lanes` prints each', async () => {
    const r = await check('openai-compatible', {}, { PATH: '' });
    assert.equal(r.ready, false);
    assert.deepEqual(
      !r.ready && r.problems?.map((p) => p.fixes),
      [[{ kind: 'setting', setting: 'baseUrl' }], [{ kind: 'setting', setting: 'model' }]],
      'its key is optional: a local server needs none',
    );
    const repo = await makeTempRepo();
    try {
      const env = { PATH: '', HOME: repo.dir };
      const listed = await runCli(['lanes'], { cwd: repo.dir, env });
      assert.equal(listed.code, 0, listed.err);
      const lines = listed.out.split('\n').filter((l) => l.startsWith('  openai-compatible: '));
      assert.deepEqual(
        lines.map((l) => /needs the "(\w+)" setting/.exec(l)?.[1]),
        ['baseUrl', 'model'],
        listed.out,
      );
      const json = JSON.parse((await runCli(['lanes', '--json'], { cwd: repo.dir, env })).out) as {
        id: string;
        readiness: { problems?: { reason: string }[] };
      }[];
      assert.equal(json.find((l) => l.id === 'openai-compatible')?.readiness.problems?.length, 2);
    } finally {
      await repo.cleanup();
    }
  });
});

describe('unknown lane ids in settings', () => {
  it('are flagged with the registered ids, by name', () => {
    const found = unknownLaneIds(['command', 'aider', 'aider'], builtins, 'The setting switchyard.lanes');
    assert.deepEqual(found?.unknown, ['aider']);
    assert.match(
      found?.message ?? '',
      /^The setting switchyard\.lanes names a lane that is not registered: "aider"; it is ignored\. Registered lanes: anthropic, claude-code, codex, command, cursor-agent, openai-compatible$/,
    );
    assert.equal(unknownLaneIds(['command', 'codex'], builtins, 'x'), undefined);
  });

  it('`switchyard lanes` warns about a lane id in the project config that no lane has', async () => {
    const repo = await makeTempRepo();
    try {
      await mkdir(join(repo.dir, '.switchyard'), { recursive: true });
      await writeFile(
        join(repo.dir, '.switchyard', 'config.json'),
        JSON.stringify({ version: 1, laneSettings: { aider: { model: 'x' } } }),
      );
      const env = { PATH: '', HOME: repo.dir, XDG_CONFIG_HOME: join(repo.dir, '.config') };
      const trusted = await runCli(['trust'], { cwd: repo.dir, env });
      assert.equal(trusted.code, 0, trusted.err);
      const listed = await runCli(['lanes'], { cwd: repo.dir, env });
      assert.equal(listed.code, 0, listed.err);
      assert.match(listed.err, /warning: The project's laneSettings names a lane that is not registered: "aider"/);
    } finally {
      await repo.cleanup();
    }
  });
});
