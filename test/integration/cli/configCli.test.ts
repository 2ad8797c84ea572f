import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { knownKeys, resolveKey } from '../../../src/core/store/settingKeys';
import { runCli } from '../../helpers/runCli';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

interface JsonSchemaLeaf {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  items?: JsonSchemaLeaf;
  anyOf?: JsonSchemaLeaf[];
}

/** A valid value for a key, different from its default, from the key's own schema (so new settings are covered). */
function sampleValue(key: string): unknown {
  const special: Record<string, unknown> = {
    'github.apiUrl': 'https://ghe.example.com/api/v3',
    'github.repository': 'octo-org/hello',
  };
  if (key in special) return special[key];
  const schema = z.toJSONSchema(resolveKey(key).schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaLeaf;
  const leaf = schema.anyOf?.[0] ?? schema;
  if (leaf.enum) return leaf.enum.find((v) => v !== leaf.default) ?? leaf.enum[0];
  const type = Array.isArray(leaf.type) ? leaf.type[0] : leaf.type;
  if (type === 'boolean') return leaf.default !== true;
  if (type === 'number' || type === 'integer') {
    const base = typeof leaf.default === 'number' ? leaf.default : (leaf.minimum ?? 1);
    return base + 1 <= (leaf.maximum ?? Number.MAX_SAFE_INTEGER) ? base + 1 : base - 1;
  }
  if (type === 'array') return ['command'];
  if (type === 'string') return key.endsWith('targetBranch') ? 'team/integration' : 'command';
  // A free-form value (a lane's own setting): text.
  return type === undefined && !leaf.anyOf ? 'echo from config' : undefined;
}

/** The leaf keys of the config, records named `command`; objects and free-form values are left out. */
function leafKeys(): string[] {
  const keys = knownKeys().map((k) => k.replaceAll('<name>', 'command'));
  // github.app's fields are set together (an app needs all three):
  // test/integration/cli/pullRequestConfig.test.ts sets it.
  return keys.filter(
    (k) => !keys.some((o) => o.startsWith(`${k}.`)) && !k.startsWith('mergePolicy') && !k.startsWith('github.app'),
  );
}

describe('switchyard config: the committed project config and the local override', function () {
  this.timeout(240_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let home: Awaited<ReturnType<typeof makeTempDir>>;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir], { env });
  beforeEach(async () => {
    repo = await makeTempRepo();
    home = await makeTempDir();
    env = { ...process.env, XDG_CONFIG_HOME: home.dir, SWITCHYARD_BACKEND: 'files' };
  });
  afterEach(async () => {
    await repo.cleanup();
    await home.cleanup();
  });

  it('every project setting can be set, read back and explained, committed and local, and unset again', async () => {
    assert.equal((await runCli(['trust', '--repo', repo.dir], { env })).code, 0);
    const keys = leafKeys();
    assert.ok(keys.includes('wip.VERIFYING') && keys.includes('integration.mode') && keys.includes('leaseMs'));
    const read = async (key: string) => {
      const got = await cli('config', 'get', key, '--json');
      assert.equal(got.code, 0, `${key}: ${got.err}`);
      return got.out === '' ? undefined : JSON.parse(got.out);
    };
    const source = async (key: string) =>
      JSON.parse((await cli('config', 'get', key, '--explain', '--json')).out)[key]?.source;
    const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
    for (const key of keys) {
      const builtIn = await read(key);
      const value = sampleValue(key);
      assert.notEqual(value, undefined, `no sample value for ${key}`);
      const set = await cli('config', 'set', key, asText(value));
      assert.equal(set.code, 0, `${key}: ${set.err}`);
      assert.deepEqual(await read(key), value, key);
      assert.equal(await source(key), 'committed', key);
      const committed = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'config.json'), 'utf8'));
      assert.equal(committed.version, 1);
      // The local override wins over the committed value, also when it equals the built-in default.
      const localValue = builtIn ?? value;
      assert.equal((await cli('config', 'set', key, asText(localValue), '--local')).code, 0, key);
      assert.deepEqual(await read(key), localValue, key);
      assert.equal(await source(key), 'local', key);
      assert.equal((await cli('config', 'unset', key, '--local')).code, 0, key);
      assert.deepEqual(await read(key), value, key);
      assert.equal(await source(key), 'committed', key);
      assert.equal((await cli('config', 'unset', key)).code, 0, key);
      assert.deepEqual(await read(key), builtIn, key);
      assert.notEqual(await source(key), 'committed', key);
    }
    const all = await cli('config', 'get', '--explain');
    assert.match(all.out, /^wip\.RUNNING = 4 {2}\(default\)$/m);
    assert.match(all.out, /precedence: default < committed .*config\.json < local override/);
  });

  it('a bad key names the nearest valid key, a bad value names the key and its type; nothing is written', async () => {
    const file = join(repo.dir, '.switchyard', 'config.json');
    const badKey = await cli('config', 'set', 'wip.VERIFYNG', '3');
    assert.equal(badKey.code, 2);
    assert.match(badKey.err, /unknown config key "wip\.VERIFYNG"; did you mean "wip\.VERIFYING"\?/);
    assert.equal(existsSync(file), false);
    assert.equal((await cli('config', 'set', 'review.enabled', 'true')).code, 0);
    const before = await readFile(file, 'utf8');
    const badValue = await cli('config', 'set', 'review.enabled', 'maybe');
    assert.equal(badValue.code, 2);
    assert.match(badValue.err, /invalid value for review\.enabled: expected a boolean/);
    const badEnum = await cli('config', 'set', 'integration.mode', 'sideways', '--local');
    assert.equal(badEnum.code, 2);
    assert.match(badEnum.err, /invalid value for integration\.mode: expected one of local, push/);
    const tooMany = await cli('config', 'set', 'wip.RUNNING', '1000');
    assert.equal(tooMany.code, 2);
    assert.match(tooMany.err, /invalid value for wip\.RUNNING: expected a number/);
    const routing = await cli('config', 'set', 'defaultLane', 'command');
    assert.equal(routing.code, 2);
    assert.match(routing.err, /switchyard default-lane/);
    assert.equal(await readFile(file, 'utf8'), before);
    const local = await cli('config', 'get', 'integration.mode', '--explain', '--json');
    assert.deepEqual(JSON.parse(local.out)['integration.mode'], { value: 'local', source: 'default' });
  });
});
