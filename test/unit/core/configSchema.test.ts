import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectConfigJsonSchema } from '../../../src/core/store/projectConfig';
import { laneSettingsMapJsonSchema } from '../../../src/core/store/laneSettingsSchema';
import { builtinLaneManifests } from '../../../src/lanes/builtinLanes';

interface SchemaFile {
  properties: Record<string, { properties?: Record<string, { type?: string }> } | undefined>;
}

describe('schemas/config.schema.json', () => {
  it('is the one generated from the zod schema (node --import tsx scripts/write-config-schema.ts)', async () => {
    const committed: SchemaFile = JSON.parse(
      await readFile(join(import.meta.dirname, '..', '..', '..', 'schemas', 'config.schema.json'), 'utf8'),
    );
    assert.deepEqual(committed, JSON.parse(JSON.stringify(projectConfigJsonSchema(builtinLaneManifests()))));
    assert.equal(committed.properties.wip?.properties?.VERIFYING?.type, 'integer');
    assert.equal(committed.properties.defaultLane, undefined, 'routing is not in the committed config');
    assert.ok(committed.properties.mergePolicy);
  });

  it('is contributed to VS Code for .switchyard/config.json', async () => {
    const pkg = JSON.parse(await readFile(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(
      pkg.contributes.jsonValidation.find((v: { fileMatch: string }) => v.fileMatch === '**/.switchyard/config.json'),
      { fileMatch: '**/.switchyard/config.json', url: './schemas/config.schema.json' },
    );
    const packaged = await readFile(join(import.meta.dirname, '..', '..', '..', '.vscodeignore'), 'utf8');
    assert.match(packaged, /^!schemas\/\*\*$/m, 'the schema ships with the extension');
  });

  it('gives every setting a hover text (a description), down to the fields of each settings object', async () => {
    const committed = JSON.parse(
      await readFile(join(import.meta.dirname, '..', '..', '..', 'schemas', 'config.schema.json'), 'utf8'),
    );
    type Node = { description?: string; properties?: Record<string, Node> };
    const missing: string[] = [];
    const walk = (node: Node, prefix: string): void => {
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        const path = prefix ? `${prefix}.${key}` : key;
        if (path === '$schema' || path.startsWith('mergePolicy.') || path.startsWith('laneSettings.')) continue;
        if (!child.description) missing.push(path);
        walk(child, path);
      }
    };
    walk(committed, '');
    assert.deepEqual(missing, []);
  });
});

describe('a JSON schema per built-in lane (switchyard.lanes and laneSettings)', () => {
  it("is in package.json's switchyard.lanes setting as generated from the manifests", async () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const setting = pkg.contributes.configuration.properties['switchyard.lanes'];
    const generated = JSON.parse(JSON.stringify(laneSettingsMapJsonSchema(builtinLaneManifests())));
    assert.deepEqual(setting.properties, generated.properties);
    assert.deepEqual(setting.additionalProperties, { type: 'object' }, "a third-party lane's settings stay free");
    assert.deepEqual(Object.keys(setting.properties), [
      'anthropic',
      'claude-code',
      'codex',
      'command',
      'cursor-agent',
      'openai-compatible',
    ]);
  });

  it('flags a wrong type and an unknown key, and accepts a valid value, in a real validator', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile({ type: 'object', ...laneSettingsMapJsonSchema(builtinLaneManifests()) });
    assert.equal(validate({ command: { command: './agent.sh', env: ['MY_TOKEN'] }, mine: { any: 1 } }), true);
    assert.equal(validate({ command: { command: 42 } }), false);
    assert.match(JSON.stringify(validate.errors), /\/command\/command.*must be string/);
    assert.equal(validate({ codex: { binray: '/usr/bin/codex' } }), false);
    assert.match(JSON.stringify(validate.errors), /binray.*must NOT have additional properties/);
  });
});
