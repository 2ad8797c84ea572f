import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { groupAlive, killAll } from '../harness/processes';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// Two edges of the daily loop in a real VS Code (code-server + chromium, the packaged .vsix):
// - a folder that is not inside a git repository: the Switchyard view says so and its Initialize Repository link
//   runs the built-in git.init, after which the folder is a repository;
// - Run Queue while another Switchyard process (the CLI, started here) holds the only task: the window starts
//   nothing and says the task is in progress elsewhere; when the CLI finishes it, the window says so once and badges
//   the Switchyard activity while its Tasks view is hidden.
// Pictures in the light and dark themes: test-output/ui-verify/.

const OUT = join(REPO_ROOT, 'test-output', 'ui-verify');
const HOLD_AGENT = join(REPO_ROOT, 'test', 'fixtures', 'holdAgent.mjs');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' } as const;

interface StoredTask {
  id: string;
  state: string;
  spec: { title: string };
}

describe('A folder without git, and a queue held by another process (code-server + chromium)', function () {
  this.timeout(180_000);
  let plain: string;
  let workspace: TestWorkspace;
  let control: string;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;

  /** Writes `.vscode/settings.json` of `folder`. */
  const writeSettings = (folder: string, settings: Record<string, unknown>): void => {
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    writeFileSync(join(folder, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  };

  /** The current view in the light and the dark theme: `<name>-light.png`, `<name>-dark.png`; dark stays on. */
  async function themedShots(folder: string, settings: Record<string, unknown>, name: string): Promise<void> {
    for (const [key, theme] of Object.entries(THEMES)) {
      writeSettings(folder, { ...settings, 'workbench.colorTheme': theme });
      await poll(`the ${theme} theme`, async () =>
        (await page.locator('.monaco-workbench').getAttribute('class'))?.includes(key === 'light' ? 'vs ' : 'vs-dark')
          ? true
          : undefined,
      );
      await page.waitForTimeout(800); // the theme's colours reach every part
      await page.mouse.move(5, 500);
      await page.screenshot({ path: join(OUT, `${name}-${key}.png`) });
    }
    writeSettings(folder, { ...settings, 'workbench.colorTheme': THEMES.dark });
  }

  const toasts = (): Promise<string> =>
    page
      .locator('.notifications-toasts')
      .innerText()
      .catch(() => '');

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    plain = mkdtempSync(join(tmpdir(), 'switchyard-nogit-'));
    workspace = createTestWorkspace();
    control = mkdtempSync(join(tmpdir(), 'switchyard-held-control-'));
    const removeFolders = (): void => {
      rmSync(plain, { recursive: true, force: true });
      workspace.remove();
      rmSync(control, { recursive: true, force: true });
    };
    registerCleanup({ name: 'not-git test folders', run: async () => removeFolders(), runSync: removeFolders });
    assert.throws(
      () => execFileSync('git', ['rev-parse', '--git-dir'], { cwd: plain, stdio: 'pipe' }),
      'the temp folder is not inside a git repository',
    );
    writeFileSync(join(plain, 'notes.txt'), 'a folder without git\n');
    writeSettings(plain, { 'workbench.colorTheme': THEMES.dark });
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1400, height: 900 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
  });

  after(async function () {
    this.timeout(60_000);
    writeFileSync(join(control, 'release'), ''); // never leave an agent waiting
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) {
      const name = `failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`;
      await page.screenshot({ path: join(OUT, name) }).catch(() => undefined);
    }
  });

  it('a folder outside git shows why, and Initialize Repository makes it a repository', async function () {
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(plain)}`);
    await workbench.waitReady();
    await workbench.openActivity('Switchyard'); // the Tasks view loads the runtime, which sets switchyard.notGitRepo
    const welcome = page.locator('.part.sidebar .welcome-view-content');
    await poll('the not-a-git-repository welcome text', async () =>
      /This folder is not inside a git repository/.test(await welcome.innerText().catch(() => '')) ? true : undefined,
    );
    const text = await welcome.innerText();
    assert.match(text, /Switchyard runs every task in a git worktree of it/);
    assert.doesNotMatch(text, /No tasks yet/, 'the git repository welcome is not shown as well');
    const init = welcome.locator('.monaco-button', { hasText: 'Initialize Repository' });
    await init.waitFor({ state: 'visible', timeout: 10_000 });
    // The status bar says what is wrong rather than showing an empty queue ("0 running, 0 queued").
    await poll('the status bar naming the missing repository', async () =>
      (await page.locator('.statusbar-item', { hasText: 'Switchyard: no git repository' }).count()) > 0
        ? true
        : undefined,
    );
    assert.equal(await page.locator('.statusbar-item', { hasText: 'running,' }).count(), 0);
    await themedShots(plain, {}, '01-not-a-git-repo');
    assert.ok(!existsSync(join(plain, '.git')), 'no repository yet');

    await init.click();
    // git.init without arguments asks which workspace folder, even with one.
    await workbench.waitForPrompt('Pick workspace folder to initialize git repo in');
    await workbench.quickPickRow(basename(plain)).click();
    // git init writes .git/HEAD before the rest of the repository: wait until git itself sees one.
    const inside = await poll('git to see the folder as a repository', async () => {
      try {
        return execFileSync('git', ['rev-parse', '--is-inside-work-tree', '--show-toplevel'], {
          cwd: plain,
          encoding: 'utf8',
          stdio: 'pipe',
        });
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(inside.trim().split('\n'), ['true', plain], 'the folder itself is the repository');
    assert.ok(existsSync(join(plain, '.git')), 'the .git folder exists');
  });

  it('Run Queue says the task is in progress in another Switchyard process when the CLI holds it', async function () {
    const settings = {
      'switchyard.lanes': { command: { command: `${process.execPath} ${HOLD_AGENT} ${control}` } },
    };
    writeSettings(workspace.dir, { ...settings, 'workbench.colorTheme': THEMES.dark });
    const cliSync = (...args: string[]): string =>
      execFileSync(process.execPath, [CLI, ...args], { cwd: workspace.dir, encoding: 'utf8', stdio: 'pipe' });
    // The CLI reads the project's settings, not VS Code's: the same lane, stored for this project.
    cliSync('lanes', 'set', 'command', `command=${process.execPath} ${HOLD_AGENT} ${control}`);
    cliSync(
      'task',
      'add',
      '--title',
      'Held by the terminal [hold]',
      '--spec',
      'Note for the held task',
      '--lane',
      'command',
    );
    const tasks = (): StoredTask[] =>
      (JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8')) as { tasks: StoredTask[] })
        .tasks;

    const started = spawn(process.execPath, [CLI, 'run'], {
      cwd: workspace.dir,
      detached: true, // its own process group: the lane's agent is stopped with it if the test fails
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = started.pid!;
    let output = '';
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => started.once('exit', (code) => done(code)));
    const unregister = registerCleanup({
      name: 'the CLI run holding the task',
      run: async () => void (await killAll(pgid, [])),
      runSync: () => {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      },
    });
    const held = await poll(
      'the task RUNNING in the CLI',
      async () => tasks().find((t) => t.state === 'RUNNING'),
      60_000,
    );

    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`);
    await workbench.waitReady();
    await workbench.openActivity('Switchyard');
    await poll('the held task under RUNNING in the tree', async () =>
      (await workbench.tasksUnder('RUNNING')).some((r) => r.startsWith(held.id)) ? true : undefined,
    );
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.runCommand('Switchyard: Run Queue');
    const expected =
      'Switchyard: nothing to run here: no READY tasks are left; 1 task(s) are in progress in another Switchyard process (another window, a terminal or a worker).';
    await poll('the nothing-to-run-here notification', async () =>
      (await toasts()).replace(/\s+/g, ' ').includes(expected) ? true : undefined,
    );
    assert.equal(tasks().find((t) => t.id === held.id)?.state, 'RUNNING', 'the window did not take the task');
    await themedShots(workspace.dir, settings, '02-queue-held-elsewhere');

    // The task ends in the terminal's process while the Tasks view is hidden: the window says so once, and the
    // Switchyard activity carries a badge until the view is on screen again.
    await workbench.openActivity('Explorer');
    await workbench.runCommand('Notifications: Clear All Notifications');
    writeFileSync(join(control, 'release'), '');
    const code = await Promise.race([
      exited,
      new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 90_000)),
    ]);
    assert.equal(code, 0, `the CLI run exits 0 once released; its output:\n${output}`);
    unregister();
    assert.equal(tasks().find((t) => t.id === held.id)?.state, 'DONE', 'the CLI finished the task');
    const finishedElsewhere = new RegExp(
      `${held.id} · Held by the terminal \\[hold\\] DONE \\(finished in another Switchyard process`,
    );
    await poll('the finished-elsewhere notification', async () =>
      finishedElsewhere.test((await toasts()).replace(/\s+/g, ' ')) ? true : undefined,
    );
    const badge = page
      .locator('.activitybar .action-item')
      .filter({ has: page.locator('.action-label[aria-label^="Switchyard"]') })
      .locator('.badge-content');
    assert.equal(
      await poll(
        'the badge on the Switchyard activity',
        async () => (await badge.innerText().catch(() => '')) || undefined,
      ),
      '1',
    );
    await page.screenshot({ path: join(OUT, '03-finished-elsewhere-dark.png') });
    await workbench.openActivity('Switchyard');
    await poll('the badge gone once the Tasks view is on screen', async () =>
      (await badge.isVisible().catch(() => false)) ? undefined : true,
    );
    await poll('no process left in the CLI run group', async () => (groupAlive(pgid) ? undefined : true), 10_000);
  });
});
