import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

/**
 * The extension-tests entry both runners load inside the real extension host
 * (code-server: `extensionTestsPath` in the URL payload; @vscode/test-electron:
 * `runTests({ extensionTestsPath })`). Runs every `*.itest.js` next to it, extension.itest.js first.
 * Compiled to CommonJS by scripts/build-tests.mjs.
 */
export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false, // the output is relayed through the workbench, not a terminal
    timeout: 60_000,
    reporter: 'spec',
    grep: process.env.SWITCHYARD_ITEST_GREP,
  });
  // extension.itest.js first: it checks that nothing activated Switchyard before it, in a fresh host.
  const first = (f: string): number => (f === 'extension.itest.js' ? 0 : 1);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.itest.js'))
    .sort((a, b) => first(a) - first(b) || a.localeCompare(b));
  if (files.length === 0)
    return Promise.reject(new Error(`no *.itest.js files in ${__dirname}: run node scripts/build-tests.mjs`));
  for (const file of files) mocha.addFile(join(__dirname, file));

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else if (runner.total === 0) reject(new Error('no integration test ran'));
        else resolve();
      });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
