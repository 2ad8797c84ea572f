import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDistBundles } from '../../helpers/distBundles';

let built: Promise<string> | undefined;

/**
 * The command a git hook uses to run the CLI in tests: the CLI bundled once
 * per test process with the same esbuild settings as `npm run build`, so the
 * hook runs what ships (and does not depend on dist/ being fresh).
 */
export async function testCliCommand(): Promise<string> {
  return `'${process.execPath}' '${await testCliBundle()}'`;
}

/**
 * The CLI bundle (`cli.js`, which loads `cliMain.js`) of `testCliCommand`, with the hook's own bundles (`hook.js`,
 * `hookMain.js`) beside it, as `npm run build` lays them out in dist/.
 */
export function testCliBundle(): Promise<string> {
  built ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
    const outfile = join(dir, 'cli.js');
    await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    await buildDistBundles(dir, [
      ['src/cli/bin.ts', 'cli.js'],
      ['src/cli/cliMain.ts', 'cliMain.js'],
      ['src/cli/hookBin.ts', 'hook.js'],
      ['src/cli/hookMain.ts', 'hookMain.js'],
    ]);
    return outfile;
  })();
  return built;
}
