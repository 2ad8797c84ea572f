// Bundles the integration suite for the extension host: every
// test/extension-host/suite/*.ts to out/test/extension-host/suite/*.js (CommonJS,
// `vscode` and `mocha` external), the shape both test runners load, with Switchyard's own programs beside them.
import { readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as esbuild from 'esbuild';
import { NODE_BUNDLE, ownProgramBuilds } from './ownPrograms.mjs';

const suiteDir = 'test/extension-host/suite';
const outdir = 'out/test/extension-host/suite';
const entryPoints = readdirSync(suiteDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `${suiteDir}/${f}`);

const started = Date.now();
await rm(outdir, { recursive: true, force: true });
// The package is ESM ("type": "module"); these bundles are CommonJS, as the extension host requires them.
await mkdir('out', { recursive: true });
await writeFile('out/package.json', '{ "type": "commonjs" }\n');
await esbuild.build({
  ...NODE_BUNDLE,
  entryPoints,
  outdir,
  sourcemap: 'inline',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});
// The programs the suites' Switchyard code starts (the process-group supervisor, the folder remover's worker),
// beside them as in dist/.
await Promise.all(ownProgramBuilds(outdir).map((build) => esbuild.build({ ...build, logLevel: 'warning' })));
console.log(`built ${entryPoints.length} integration suite file(s) into ${outdir} in ${Date.now() - started} ms`);
