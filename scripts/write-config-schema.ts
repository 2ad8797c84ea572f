// Writes schemas/config.schema.json, the JSON schema of .switchyard/config.json, from the zod schema and the built-in
// lanes' manifests, and the same lane schemas into package.json's `switchyard.lanes` setting.
// Run: node --import tsx scripts/write-config-schema.ts (test/unit/core/configSchema.test.ts checks both are current).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectConfigJsonSchema } from '../src/core/store/projectConfig';
import { laneSettingsMapJsonSchema } from '../src/core/store/laneSettingsSchema';
import { builtinLaneManifests } from '../src/lanes/builtinLanes';

const file = join(import.meta.dirname, '..', 'schemas', 'config.schema.json');
writeFileSync(file, `${JSON.stringify(projectConfigJsonSchema(builtinLaneManifests()), null, 2)}\n`);
console.log(`wrote ${file}`);

const pkgFile = join(import.meta.dirname, '..', 'package.json');
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
const lanes = pkg.contributes.configuration.properties['switchyard.lanes'];
Object.assign(lanes, laneSettingsMapJsonSchema(builtinLaneManifests()));
writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`wrote the switchyard.lanes schema in ${pkgFile}`);
