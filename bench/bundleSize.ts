import { stat } from 'node:fs/promises';

/** Sizes of the built bundles (run after `npm run build`). */
export async function benchBundleSize(): Promise<void> {
  for (const file of [
    'dist/extension.js',
    'dist/extensionRuntime.js',
    'dist/cli.js',
    'dist/cliMain.js',
    'dist/hook.js',
    'dist/hookMain.js',
    'dist/webview.js',
  ]) {
    const size = await stat(file).then(
      (s) => s.size,
      () => undefined,
    );
    console.log(
      `${file.padEnd(26)} ${size === undefined ? 'missing (run npm run build)' : `${(size / 1024).toFixed(1)} KiB`}`,
    );
  }
}
benchBundleSize.title = 'Bundle sizes';
