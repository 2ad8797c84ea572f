/**
 * Runs the integration suite inside a real VS Code extension host: an
 * isolated code-server (VS Code 1.100.3), opened by headless Debian chromium
 * with `extensionDevelopmentPath` and `extensionTestsPath` in the URL payload.
 * The suite's result comes back through `codeAutomationExit`, its output
 * through `codeAutomationLog`. Builds nothing: run `npm run build` and
 * `node scripts/build-tests.mjs` first (scripts/test-all.sh does).
 *
 *   npx tsx test/extension-host/runInCodeServer.ts [--extension <dir>] [--suite <index.js>] [--workspace <dir>]
 *
 * Exits with the suite's exit code; 1 on a harness failure or after the time limit.
 *
 * A throwaway PostgreSQL server runs alongside (stopped at the end, whatever
 * happens); its URL reaches the extension host as SWITCHYARD_TEST_PG_URL (not
 * SWITCHYARD_DATABASE_URL: the other tests keep the files backend). Without
 * PostgreSQL server binaries the postgres backend test skips.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format, parseArgs } from 'node:util';
import { launchChromium } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer } from '../harness/codeServer';
import { createTestWorkspace } from '../harness/workspace';
import { startTestPostgres } from './helpers/testPostgres';

const TIME_LIMIT_MS = Number(process.env.SWITCHYARD_ITEST_TIME_LIMIT_MS ?? 5 * 60_000);
const log = (message: string): void => console.log(`[runInCodeServer] ${message}`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { extension: { type: 'string' }, suite: { type: 'string' }, workspace: { type: 'string' } },
  });
  const extensionDir = resolve(values.extension ?? REPO_ROOT);
  const suiteIndex = resolve(values.suite ?? join(REPO_ROOT, 'out', 'test', 'extension-host', 'suite', 'index.js'));
  preflight(extensionDir, suiteIndex);
  const started = Date.now();

  let workspace = values.workspace ? resolve(values.workspace) : undefined;
  if (!workspace) {
    const ws = createTestWorkspace();
    registerCleanup({ name: 'test workspace', run: async () => ws.remove(), runSync: ws.remove });
    workspace = ws.dir;
  }
  log(`workspace ${workspace}`);

  // Before code-server starts: its environment (and so the extension host's) is copied from ours.
  await startTestPostgres(log);

  const server = await startCodeServer();
  registerCleanup({
    name: 'code-server log',
    run: () => server.stop({ saveLogTo: join(REPO_ROOT, 'test-output', 'extension-host', 'code-server.log') }),
    runSync: () => undefined,
  });
  log(`code-server ${server.origin} healthy after ${Date.now() - started} ms`);

  const browser = await launchChromium();
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  let finish!: (code: number) => void;
  const finished = new Promise<number>((done) => (finish = done));
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => relay(type, args));
  await page.exposeFunction('codeAutomationExit', (code: number) => finish(Number(code)));
  page.on('crash', () => {
    console.error('[runInCodeServer] the workbench page crashed');
    finish(1);
  });
  if (process.env.SWITCHYARD_TEST_VERBOSE)
    page.on('console', (m) => console.error(`[browser ${m.type()}] ${m.text()}`));

  const payload = [
    ['extensionDevelopmentPath', server.remoteUri(extensionDir)],
    ['extensionTestsPath', server.remoteUri(suiteIndex)],
    ['skipWelcome', 'true'],
  ];
  const url = `${server.origin}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  log(`opening ${url}`);
  await page.goto(url, { waitUntil: 'domcontentloaded' });

  const code = await finished;
  log(`suite exited with code ${code} after ${Date.now() - started} ms (including start-up)`);
  return code;
}

function preflight(extensionDir: string, suiteIndex: string): void {
  const manifest = join(extensionDir, 'package.json');
  if (!existsSync(manifest)) throw new Error(`no extension at ${extensionDir} (no package.json)`);
  const main = (JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string }).main;
  if (main && !existsSync(join(extensionDir, main)) && !existsSync(join(extensionDir, `${main}.js`))) {
    throw new Error(`the extension's main ${main} does not exist in ${extensionDir}: run npm run build`);
  }
  if (!existsSync(suiteIndex))
    throw new Error(`the compiled suite ${suiteIndex} does not exist: run node scripts/build-tests.mjs`);
}

/** Workbench chatter that says nothing about the suite (shown with SWITCHYARD_TEST_VERBOSE=1). */
const NOISE =
  /^(Resolving connection token|Resolved connection token|Creating a socket|Ignoring fetching additional builtin|Updating additional builtin|\[Service Worker\]|ChatSessionStore|Creation of workbench contribution|Started local extension host|Loading development extension)/;

/** Prints what the extension host logged (mocha's reporter among it), formatted as console.log would. */
function relay(type: string, args: unknown): void {
  const list = Array.isArray(args) ? args : [args];
  const text = format(...list);
  if (!process.env.SWITCHYARD_TEST_VERBOSE && NOISE.test(text)) return;
  // All to stdout, in order (mocha's failures arrive as console.log anyway).
  console.log(type === 'error' || type === 'warn' ? `[${type}] ${text}` : text);
}

let exitCode = 1;
// The time limit covers everything: start-up, the suite, and a hang anywhere.
const limit = setTimeout(() => {
  console.error(
    `[runInCodeServer] FAILED: no result within the time limit of ${TIME_LIMIT_MS / 1000} s (SWITCHYARD_ITEST_TIME_LIMIT_MS)`,
  );
  void runAllCleanups().finally(() => process.exit(1));
}, TIME_LIMIT_MS);
// The chain is not awaited: main()'s failure is caught below, and a cleanup that throws is an
// unhandled rejection, which ends the process with exit code 1.
void main()
  .then((code) => (exitCode = code))
  .catch((error: unknown) => {
    console.error(
      `[runInCodeServer] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    exitCode = 1;
  })
  .then(async () => {
    clearTimeout(limit);
    await runAllCleanups();
    process.exit(exitCode);
  });
