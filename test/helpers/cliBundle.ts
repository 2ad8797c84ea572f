import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDistBundles } from './distBundles';

/**
 * Bundles the CLI from source into a temp folder as `npm run build` lays it out (cli.js and the cliMain.js it loads),
 * so tests can run it as a real process.
 */
export async function buildCliBundle(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
  await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  const outfile = join(dir, 'cli.js');
  // cli.js loads cliMain.js beside it, as in dist/.
  await buildDistBundles(dir, [
    ['src/cli/bin.ts', 'cli.js'],
    ['src/cli/cliMain.ts', 'cliMain.js'],
  ]);
  return outfile;
}
