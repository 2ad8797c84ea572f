import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

let built: Promise<string> | undefined;

/**
 * The command a git hook uses to run the CLI in tests: the CLI bundled once
 * per test process with the same esbuild settings as `npm run build`, so the
 * hook runs what ships (and does not depend on dist/ being fresh).
 */
export function testCliCommand(): Promise<string> {
  built ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
    const outfile = join(dir, 'cli.js');
    await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    await esbuild.build({
      entryPoints: ['src/cli/bin.ts'],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'error',
    });
    return `'${process.execPath}' '${outfile}'`;
  })();
  return built;
}
