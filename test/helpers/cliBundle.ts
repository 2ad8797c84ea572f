import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

/** Bundles the CLI from source into a temp folder (as `npm run build` would), so tests can run it as a real process. */
export async function buildCliBundle(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
  await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  const outfile = join(dir, 'cli.js');
  await esbuild.build({
    entryPoints: [resolve('src/cli/bin.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}
