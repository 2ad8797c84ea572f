// Bundles the extension host entry, the CLI and the webview with esbuild.
// Type checking is separate: `npm run typecheck`.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: true, logLevel: 'warning', legalComments: 'none' };

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`built ${builds.map((b) => b.outfile).join(', ')} in ${Date.now() - started} ms`);
}
