import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll, THEMES, themedShots as shootInThemes } from './workbench';

// The daily loop's second round in a real VS Code (code-server + chromium, the packaged .vsix): the Tasks view's
// title buttons with a row selected (VS Code hands them the focused row), a task that waits for a file another
// task of this window holds, and a typo in .switchyard/config.json. Pictures in the light, dark and high-contrast
// themes: test-output/ui-round2/.

const OUT = join(REPO_ROOT, 'test-output', 'ui-round2');
const HOLD_AGENT = join(REPO_ROOT, 'test', 'fixtures', 'holdAgent.mjs');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');

interface StoredTask {
  id: string;
  state: string;
  spec: { title: string };
}

describe('The daily loop, round two (code-server + chromium)', function () {
  this.timeout(120_000);
  let workspace: TestWorkspace;
  let control: string;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let settings: Record<string, unknown>;

  const tasks = (): StoredTask[] =>
    (JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8')) as { tasks: StoredTask[] })
      .tasks;
  const task = (title: string): StoredTask => tasks().find((t) => t.spec.title === title)!;
  const writeSettings = (): void =>
    writeFileSync(join(workspace.dir, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  const addTask = (title: string, ...extra: string[]): void => {
    execFileSync(process.execPath, [CLI, 'task', 'add', '--title', title, '--spec', `Note for: ${title}`, ...extra], {
      cwd: workspace.dir,
      stdio: 'pipe',
    });
  };

  /** The same view in each theme: `<name>-light.png`, `-dark.png`, `-hc.png`; the dark theme stays on. */
  const themedShots = (name: string): Promise<void> =>
    shootInThemes(page, OUT, name, (theme) => {
      settings['workbench.colorTheme'] = theme;
      writeSettings();
    });

  /** The text of the notifications on screen. */
  const toasts = (): Promise<string> =>
    page
      .locator('.notifications-toasts')
      .innerText()
      .catch(() => '');

  /** Clicks the Tasks tree row whose text starts with `prefix` (it gets focus and selection, as a person's click). */
  async function selectRow(prefix: string): Promise<void> {
    const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: prefix }).first();
    await row.waitFor({ state: 'visible' });
    await row.locator('.label-name').first().click();
    await poll(`the row ${prefix} selected`, async () =>
      (await row.getAttribute('aria-selected')) === 'true' ? true : undefined,
    );
  }

  /** A button of the Tasks view's title bar, by the start of its label. */
  const titleButton = (label: string) =>
    page.locator(`.part.sidebar .title-actions .action-label[aria-label^="${label}"]`).first();

  /** A command of the Tasks view's title overflow menu (More Actions…). */
  async function titleMenu(item: string): Promise<void> {
    await page.locator('.part.sidebar .title-actions .action-label[aria-label*="More Actions"]').first().click();
    await workbench.clickMenuItem(item);
  }

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    control = mkdtempSync(join(tmpdir(), 'switchyard-round2-control-'));
    const removeFolders = (): void => {
      workspace.remove();
      rmSync(control, { recursive: true, force: true });
    };
    registerCleanup({ name: 'round-two test folders', run: async () => removeFolders(), runSync: removeFolders });
    settings = {
      'switchyard.lanes': { command: { command: `${process.execPath} ${HOLD_AGENT} ${control}` } },
      'workbench.colorTheme': THEMES.dark,
    };
    writeSettings();
    addTask('Write the first note');
    addTask('Write the second note');
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1500, height: 950 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`, { timeout: 120_000 });
    await workbench.waitReady();
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

  it('Run Queue with a READY task row selected runs that task; no error toast', async function () {
    await workbench.openActivity('Switchyard');
    await poll('both tasks under READY', async () =>
      (await workbench.tasksUnder('READY')).length === 2 ? true : undefined,
    );
    const second = task('Write the second note');
    await selectRow(`${second.id} · Write the second note`);
    await titleButton('Run Queue').click();
    await poll('the selected task DONE', async () =>
      task('Write the second note').state === 'DONE' ? true : undefined,
    );
    assert.equal(task('Write the first note').state, 'READY', 'only the selected task ran');
    assert.doesNotMatch(await toasts(), /Unrecognized keys|Run Queue:/, 'no error toast');
  });

  it('New Task, Set Project Default Lane and Set API Key ignore the selected row (no JSON shown)', async function () {
    const first = task('Write the first note');
    await workbench.runCommand('Notifications: Clear All Notifications');
    await selectRow(`${first.id} · Write the first note`);
    await titleButton('New Task').click();
    await poll('the task document', async () =>
      /Untitled|task/i.test(await workbench.activeTabText()) &&
      (await page.locator('.editor-group-container.active .monaco-editor').count()) > 0
        ? true
        : undefined,
    );
    assert.doesNotMatch(await toasts(), /New Task expects|"spec"|"title"/);

    await selectRow(`${first.id} · Write the first note`);
    await titleMenu('Set Project Default Lane');
    await workbench.waitForPrompt('Default lane for this project');
    await page.keyboard.press('Escape');

    await selectRow(`${first.id} · Write the first note`);
    await titleMenu('Set API Key');
    await poll('the key picker', async () => ((await workbench.quickInput().isVisible()) ? true : undefined));
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500); // a failure toast would show by now
    const shown = await toasts();
    assert.doesNotMatch(shown, /expected a lane id|"spec"|Note for:/, `no internal JSON in: ${shown}`);
  });

  it('a task waiting for a file held in this window says so and starts when the holder ends', async function () {
    addTask('Edit hello [hold]', '--file', 'src/hello.txt');
    addTask('Edit hello too', '--file', 'src/hello.txt');
    const holder = task('Edit hello [hold]');
    const waiter = task('Edit hello too');
    await workbench.runCommand('Notifications: Clear All Notifications');
    await poll('the new tasks in the tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.startsWith(waiter.id)) ? true : undefined,
    );
    await workbench.treeContextMenu(`${holder.id} · Edit hello [hold]`, 'Run Task');
    await poll('the holder RUNNING', async () => (task('Edit hello [hold]').state === 'RUNNING' ? true : undefined));
    await poll('the holder under RUNNING in the tree', async () =>
      (await workbench.tasksUnder('RUNNING')).some((r) => r.startsWith(holder.id)) ? true : undefined,
    );
    await workbench.treeContextMenu(`${waiter.id} · Edit hello too`, 'Run Task');
    const line = `${waiter.id} waits for src/hello.txt, held by ${holder.id} (running in this window)`;
    await poll('the wait named in the progress notification', async () =>
      (await toasts()).includes(line) ? true : undefined,
    );
    assert.doesNotMatch(await toasts(), /another Switchyard process/);
    assert.equal(task('Edit hello too').state, 'READY');
    await themedShots('01-waits-for-file');
    writeFileSync(join(control, 'release'), '');
    await poll('the holder DONE', async () => (task('Edit hello [hold]').state === 'DONE' ? true : undefined), 90_000);
    await poll(
      'the waiting task started on its own and DONE',
      async () => (task('Edit hello too').state === 'DONE' ? true : undefined),
      90_000,
    );
  });

  it('a typo in .switchyard/config.json leaves the tasks visible, a banner and Open Project Config', async function () {
    await workbench.runCommand('Notifications: Clear All Notifications');
    mkdirSync(join(workspace.dir, '.switchyard'), { recursive: true });
    writeFileSync(
      join(workspace.dir, '.switchyard', 'config.json'),
      `${JSON.stringify({ version: 1, wip: { RUNNING: 'many' }, verifyTimeoutSeconds: 300 }, null, 2)}\n`,
    );
    await titleButton('Refresh').click();
    const banner = page.locator('.part.sidebar .message').first();
    const text = await poll('the banner naming the ignored key', async () => {
      const shown = await banner.innerText().catch(() => '');
      return /config\.json: 1 setting is ignored/.test(shown) ? shown : undefined;
    });
    assert.match(text, /wip\.RUNNING/);
    const rows = await workbench.sideBarTreeRows();
    assert.ok(
      rows.some((r) => r.text.startsWith('Open Project Config')),
      `the Open Project Config row: ${JSON.stringify(rows)}`,
    );
    assert.ok((await workbench.tasksUnder('DONE')).length >= 3, 'the tasks stay visible');
    const status = await page.locator('.statusbar').innerText();
    assert.doesNotMatch(status, /not open/);
    await themedShots('02-config-typo');
    await page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'Open Project Config' }).first().click();
    await workbench.waitForActiveTab(/config\.json/, 'config.json in the editor');
  });

  it('a failure toast leads with the reason; Show Log opens the run log and Retry is still offered', async function () {
    writeFileSync(join(control, 'fail'), '');
    addTask('Break it [fail]');
    const failing = task('Break it [fail]');
    await workbench.runCommand('Notifications: Clear All Notifications');
    await poll('the failing task in the tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.startsWith(failing.id)) ? true : undefined,
    );
    await workbench.treeContextMenu(`${failing.id} · Break it [fail]`, 'Run Task');
    await poll('the task FAILED', async () => (task('Break it [fail]').state === 'FAILED' ? true : undefined), 90_000);
    const toast = page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: `${failing.id} · Break it [fail] failed` })
      .first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await toast.locator('.notification-list-item-message').innerText()).replace(/\s+/g, ' ');
    assert.match(
      text,
      new RegExp(`^holdAgent: simulated failure of ${failing.id}: the fixture's fail marker is set — `),
    );
    assert.doesNotMatch(text, /not retried|breaker|permanent|holdAgent\.mjs/);
    await themedShots('03-failure-toast');
    await toast.locator('.monaco-button', { hasText: 'Show Log' }).click();
    const output = page.locator('.part.panel .monaco-editor .view-lines').first();
    await poll('the run log in the Output view', async () => {
      const shown = (await output.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
      return shown.includes(`run ${failing.id}.`) ? true : undefined;
    });
    const selected = await page
      .locator('select.monaco-select-box')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLSelectElement).selectedOptions[0]?.text ?? ''));
    assert.ok(
      selected.some((s) => s.startsWith(`Switchyard: ${failing.id} · `)),
      `the run's channel: ${selected}`,
    );
    assert.doesNotMatch(
      await page
        .locator('.tab.active')
        .innerText()
        .catch(() => ''),
      /events\.jsonl/,
    );
    const again = page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: `${failing.id} · Break it [fail] failed` })
      .first();
    await again.waitFor({ state: 'visible', timeout: 10_000 });
    rmSync(join(control, 'fail'), { force: true });
    await again.locator('.monaco-button', { hasText: 'Retry' }).click();
    await poll(
      'the retried task DONE',
      async () => (task('Break it [fail]').state === 'DONE' ? true : undefined),
      90_000,
    );
  });

  it("the progress toast's Cancel cancels the task; Cancel Task's dialog has no bare Cancel", async function () {
    rmSync(join(control, 'release'), { force: true });
    addTask('Stop me [hold]');
    const first = task('Stop me [hold]');
    await workbench.runCommand('Notifications: Clear All Notifications');
    await poll('the task in the tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.startsWith(first.id)) ? true : undefined,
    );
    await workbench.treeContextMenu(`${first.id} · Stop me [hold]`, 'Run Task');
    await poll('the task RUNNING', async () => (task('Stop me [hold]').state === 'RUNNING' ? true : undefined));
    await poll('the task under RUNNING in the tree', async () =>
      (await workbench.tasksUnder('RUNNING')).some((r) => r.startsWith(first.id)) ? true : undefined,
    );
    const progress = page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: `running ${first.id} · Stop me [hold]` })
      .first();
    await progress.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    await poll('the task CANCELED (not back in READY)', async () =>
      task('Stop me [hold]').state === 'CANCELED' ? true : undefined,
    );
    await poll('the toast saying so', async () =>
      new RegExp(`canceled ${first.id} · Stop me \\[hold\\]: the run stopped`).test(await toasts()) ? true : undefined,
    );

    addTask('Keep me [hold]');
    const second = task('Keep me [hold]');
    await workbench.runCommand('Notifications: Clear All Notifications');
    await poll('the second task in the tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.startsWith(second.id)) ? true : undefined,
    );
    await workbench.treeContextMenu(`${second.id} · Keep me [hold]`, 'Run Task');
    await poll('the second task RUNNING', async () => (task('Keep me [hold]').state === 'RUNNING' ? true : undefined));
    await poll('the second task under RUNNING in the tree', async () =>
      (await workbench.tasksUnder('RUNNING')).some((r) => r.startsWith(second.id)) ? true : undefined,
    );
    await workbench.treeContextMenu(`${second.id} · Keep me [hold]`, 'Cancel Task');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    const buttons = await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts();
    // (The order on screen is the platform's: Linux puts the close affordance first.)
    assert.deepEqual(buttons.map((b) => b.trim()).sort(), ['Cancel Task', 'Keep Running']);
    await themedShots('04-cancel-dialog');
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Keep Running' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(task('Keep me [hold]').state, 'RUNNING', 'Keep Running keeps it running');
    await workbench.treeContextMenu(`${second.id} · Keep me [hold]`, 'Cancel Task');
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Cancel Task' }).click();
    await poll('the second task CANCELED', async () =>
      task('Keep me [hold]').state === 'CANCELED' ? true : undefined,
    );
    writeFileSync(join(control, 'release'), '');
  });

  it('failures sort before DONE; Clear Finished archives finished tasks; Show Archived', async function () {
    writeFileSync(join(control, 'fail'), '');
    addTask('Fail again [fail]');
    const failing = task('Fail again [fail]');
    await workbench.runCommand('Notifications: Clear All Notifications');
    await poll('the task in the tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.startsWith(failing.id)) ? true : undefined,
    );
    await workbench.treeContextMenu(`${failing.id} · Fail again [fail]`, 'Run Task');
    await poll(
      'the task FAILED',
      async () => (task('Fail again [fail]').state === 'FAILED' ? true : undefined),
      90_000,
    );
    rmSync(join(control, 'fail'), { force: true });
    const topRows = async (): Promise<string[]> =>
      (await workbench.sideBarTreeRows()).filter((r) => r.level === 1).map((r) => r.text.split(' ')[0]!);
    const order = await poll('FAILED in the tree', async () => {
      const rows = await topRows();
      return rows.includes('FAILED') ? rows : undefined;
    });
    assert.ok(order.indexOf('FAILED') < order.indexOf('DONE'), `FAILED before DONE: ${order}`);
    assert.ok(order.indexOf('READY') < order.indexOf('FAILED'), `the queue first: ${order}`);
    await titleMenu('Clear Finished');
    await poll('the finished tasks gone from the tree', async () => {
      const rows = await topRows();
      return !rows.some((r) => ['DONE', 'FAILED', 'CANCELED'].includes(r)) && rows.includes('READY') ? true : undefined;
    });
    assert.equal(task('Fail again [fail]').state, 'FAILED', 'nothing changed in the records');
    await themedShots('05-cleared');
    await titleMenu('Show Archived Tasks');
    await poll('the archived tasks back', async () =>
      (await workbench.tasksUnder('DONE')).length >= 3 ? true : undefined,
    );
    await titleMenu('Hide Archived Tasks');
    await poll('hidden again', async () => ((await workbench.tasksUnder('DONE')).length === 0 ? true : undefined));
  });

  it('default keybindings: Ctrl+Alt+Y then R runs the queue, N opens New Task, L sends a file', async function () {
    writeFileSync(join(control, 'release'), '');
    await workbench.runCommand('Notifications: Clear All Notifications');
    assert.equal(task('Write the first note').state, 'READY');
    // The banner's row opens config.json: the active editor is not a task document before the chords.
    await page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'Open Project Config' }).first().click();
    await poll('config.json active', async () =>
      /config\.json/.test(
        await page
          .locator('.tab.active')
          .innerText()
          .catch(() => ''),
      )
        ? true
        : undefined,
    );
    await workbench.chord('Control+Alt+KeyY', 'KeyR');
    await poll('the queue ran the READY task', async () =>
      task('Write the first note').state === 'DONE' ? true : undefined,
    );
    const untitled = await page.locator('.tab', { hasText: /^Untitled-/ }).count();
    await workbench.chord('Control+Alt+KeyY', 'KeyN');
    await poll('a new task document, active', async () =>
      (await page.locator('.tab', { hasText: /^Untitled-/ }).count()) === untitled + 1 &&
      /Untitled-/.test(
        await page
          .locator('.tab.active')
          .innerText()
          .catch(() => ''),
      ) &&
      (await workbench.activeEditorText()).includes('New Switchyard task')
        ? true
        : undefined,
    );
    await page.keyboard.press('Control+Shift+KeyE'); // (the Explorer's unsaved-files badge takes a click)
    await page.locator('.explorer-folders-view .monaco-list-row[aria-label="README.md"]').click();
    await poll('README.md in the editor', async () =>
      /README\.md/.test(
        await page
          .locator('.tab.active')
          .innerText()
          .catch(() => ''),
      )
        ? true
        : undefined,
    );
    await workbench.chord('Control+Alt+KeyY', 'KeyL');
    await workbench.waitForPrompt('Send README.md to which lane?');
    await page.keyboard.press('Escape');
  });
});
