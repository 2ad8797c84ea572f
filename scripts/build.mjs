// Bundles the extension host entry, the CLI and the webview with esbuild.
// Type checking is separate: `npm run typecheck`.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: true, minify: true, logLevel: 'warning', legalComments: 'none' };

const builds = [
  {
    // The small entry VS Code loads at activation: registrations only; it requires the runtime on first need.
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    // Everything else of the extension: lanes, the project, the panel and the command handlers.
    ...common,
    entryPoints: ['src/extensionRuntime.ts'],
    outfile: 'dist/extensionRuntime.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: ['src/cli/bin.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

// The package is ESM ("type": "module") for its sources and tests; the bundles are CommonJS.
await mkdir('dist', { recursive: true });
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');

// The queue panel's icons: the codicon font and its stylesheet from @vscode/codicons (font CC-BY-4.0, its
// licence goes along), copied into media/ because the webview may only load from dist/ and media/.
await mkdir('media/codicons', { recursive: true });
for (const [from, to] of [
  ['dist/codicon.css', 'codicon.css'],
  ['dist/codicon.ttf', 'codicon.ttf'],
  ['LICENSE', 'LICENSE'],
]) {
  await copyFile(`node_modules/@vscode/codicons/${from}`, `media/codicons/${to}`);
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`built ${builds.map((b) => b.outfile).join(', ')} in ${Date.now() - started} ms`);
}
