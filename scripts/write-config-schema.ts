// Writes schemas/config.schema.json, the JSON schema of .switchyard/config.json, from the zod schema.
// Run: node --import tsx scripts/write-config-schema.ts (test/unit/core/configSchema.test.ts checks it is current).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectConfigJsonSchema } from '../src/core/store/projectConfig';

const file = join(import.meta.dirname, '..', 'schemas', 'config.schema.json');
writeFileSync(file, `${JSON.stringify(projectConfigJsonSchema(), null, 2)}\n`);
console.log(`wrote ${file}`);
