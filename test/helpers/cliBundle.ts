import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

/**
 * Bundles the CLI from source into a temp folder as `npm run build` lays it out (cli.js and the cliMain.js it loads),
 * so tests can run it as a real process.
 */
export async function buildCliBundle(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
  await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  const outfile = join(dir, 'cli.js');
  // cli.js loads cliMain.js beside it, as in dist/.
  for (const [entry, out] of [
    ['src/cli/bin.ts', outfile],
    ['src/cli/cliMain.ts', join(dir, 'cliMain.js')],
  ] as const) {
    await esbuild.build({
      entryPoints: [resolve(entry)],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'error',
    });
  }
  return outfile;
}
