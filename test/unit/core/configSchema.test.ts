import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectConfigJsonSchema } from '../../../src/core/store/projectConfig';

interface SchemaFile {
  properties: Record<string, { properties?: Record<string, { type?: string }> } | undefined>;
}

describe('schemas/config.schema.json', () => {
  it('is the one generated from the zod schema (node --import tsx scripts/write-config-schema.ts)', async () => {
    const committed: SchemaFile = JSON.parse(
      await readFile(join(__dirname, '..', '..', '..', 'schemas', 'config.schema.json'), 'utf8'),
    );
    assert.deepEqual(committed, JSON.parse(JSON.stringify(projectConfigJsonSchema())));
    assert.equal(committed.properties.wip?.properties?.VERIFYING?.type, 'integer');
    assert.equal(committed.properties.defaultLane, undefined, 'routing is not in the committed config');
    assert.ok(committed.properties.mergePolicy);
  });

  it('is contributed to VS Code for .switchyard/config.json', async () => {
    const pkg = JSON.parse(await readFile(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(
      pkg.contributes.jsonValidation.find((v: { fileMatch: string }) => v.fileMatch === '**/.switchyard/config.json'),
      { fileMatch: '**/.switchyard/config.json', url: './schemas/config.schema.json' },
    );
    const packaged = await readFile(join(__dirname, '..', '..', '..', '.vscodeignore'), 'utf8');
    assert.match(packaged, /^!schemas\/\*\*$/m, 'the schema ships with the extension');
  });

  it('gives every setting a hover text (a description), down to the fields of each settings object', async () => {
    const committed = JSON.parse(
      await readFile(join(__dirname, '..', '..', '..', 'schemas', 'config.schema.json'), 'utf8'),
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
