/**
 * Runs the same integration suite in desktop VS Code through
 * @vscode/test-electron, for machines that can download VS Code (it cannot be
 * downloaded here: use runInCodeServer.ts). Builds nothing: run `npm run build`
 * and `node scripts/build-tests.mjs` first. On a headless Linux machine run it
 * under a display server, e.g. `xvfb-run -a npm run test:electron`.
 *
 *   npx tsx test/extension-host/runInElectron.ts
 *   VSCODE_TEST_VERSION=1.100.3 npx tsx test/extension-host/runInElectron.ts
 *   VSCODE_EXECUTABLE=/path/to/code npx tsx test/extension-host/runInElectron.ts
 *
 * Like runInCodeServer.ts, it runs a throwaway PostgreSQL server alongside
 * (SWITCHYARD_TEST_PG_URL in the editor's environment) and stops it at the end.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from '../harness/codeServer';
import { createTestWorkspace } from '../harness/workspace';
import { startTestPostgres } from './helpers/testPostgres';

async function main(): Promise<number> {
  const extensionTestsPath = join(REPO_ROOT, 'out', 'test', 'extension-host', 'suite', 'index.js');
  if (!existsSync(join(REPO_ROOT, 'dist', 'extension.js')))
    throw new Error('dist/extension.js is missing: run npm run build');
  if (!existsSync(extensionTestsPath))
    throw new Error(`${extensionTestsPath} is missing: run node scripts/build-tests.mjs`);

  const workspace = createTestWorkspace();
  let stopPostgres: (() => Promise<void>) | undefined;
  try {
    stopPostgres = await startTestPostgres((message) => console.log(`[runInElectron] ${message}`));
    return await runTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath,
      launchArgs: [
        workspace.dir,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
      ...(process.env.VSCODE_EXECUTABLE
        ? { vscodeExecutablePath: process.env.VSCODE_EXECUTABLE }
        : { version: process.env.VSCODE_TEST_VERSION ?? 'stable' }),
    });
  } finally {
    await stopPostgres?.();
    workspace.remove();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[runInElectron] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
