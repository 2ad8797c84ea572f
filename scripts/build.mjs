// Bundles the extension host entry, the CLI and the webview with esbuild, and generates switchyard.d.ts, the public
// API file, from src/api.ts (scripts/build-api.mjs). Type checking is separate: `npm run typecheck`.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';
import { writeApiDeclaration } from './build-api.mjs';
import { NODE_BUNDLE, ownProgramBuilds } from './ownPrograms.mjs';

const watch = process.argv.includes('--watch');

/**
 * zod re-exports its ~65 message locales as `z.locales` (≈ 450 KiB minified, all evaluated at load); Switchyard uses
 * none of them beyond English, which zod's schemas import directly. The namespace keeps only `en`.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};\n`,
      resolveDir: dirname(args.path),
    }));
  },
};

const common = {
  bundle: true,
  sourcemap: true,
  minify: true,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [zodEnglishOnly],
};

const node = { ...common, ...NODE_BUNDLE };

const builds = [
  {
    // The small entry VS Code loads at activation: registrations only; it requires the runtime on first need.
    ...node,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
  },
  {
    // Everything else of the extension: lanes, the project, the panel and the command handlers.
    ...node,
    entryPoints: ['src/extensionRuntime.ts'],
    outfile: 'dist/extensionRuntime.js',
    external: ['vscode'],
  },
  {
    // The `switchyard` command (package.json bin): a loader of cliMain.js with a V8 code cache.
    ...node,
    entryPoints: ['src/cli/bin.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The whole CLI. Heavy libraries (the AI SDK, octokit, pg, secretlint) are imported where they are used,
    // so they are evaluated only when a command needs them.
    ...node,
    entryPoints: ['src/cli/cliMain.ts'],
    outfile: 'dist/cliMain.js',
  },
  {
    // What the installed pre-push hook runs: a loader of hookMain.js with a V8 code cache.
    ...node,
    entryPoints: ['src/cli/hookBin.ts'],
    outfile: 'dist/hook.js',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The hook's guards and nothing else of the CLI, so the process git waits for starts fast.
    ...node,
    entryPoints: ['src/cli/hookMain.ts'],
    outfile: 'dist/hookMain.js',
  },
  // The programs the extension and the CLI start: the process-group supervisor, the folder remover's worker.
  ...ownProgramBuilds('dist').map((b) => ({ ...node, ...b })),
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
  console.log(writeApiDeclaration());
}
