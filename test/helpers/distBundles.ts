import { resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { NODE_BUNDLE, ownProgramBuilds } from '../../scripts/ownPrograms.mjs';

/**
 * Bundles `entries` (source entry → output file) into `dir` as `npm run build` lays out dist/: CommonJS for Node 20,
 * each bundle seeing `import.meta.filename` as its own file, and Switchyard's own programs (the process-group
 * supervisor, the folder remover's worker) beside them, where the bundles look for them. `options` are added to the
 * entries' builds (externals, for example). The folder needs its own `{ "type": "commonjs" }` package.json.
 */
export async function buildDistBundles(
  dir: string,
  entries: readonly (readonly [string, string])[],
  options: esbuild.BuildOptions = {},
): Promise<void> {
  const builds: esbuild.BuildOptions[] = [
    ...entries.map(([entry, outfile]) => ({
      ...NODE_BUNDLE,
      entryPoints: [resolve(entry)],
      outfile: resolve(dir, outfile),
      ...options,
    })),
    ...ownProgramBuilds(dir),
  ];
  await Promise.all(builds.map((build) => esbuild.build({ logLevel: 'error', ...build })));
}
