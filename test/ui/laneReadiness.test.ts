import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// The daily loop's safety rails in a real VS Code (code-server + chromium, the packaged .vsix): an unconfigured lane
// is shown as such in the lane picker and Configure… opens its setting; a lane failing for a missing key is not
// retried and its notification carries the fix; the Cancel picker puts the running task first and asks before it
// cancels; the panel shows no verify rate without acceptance commands and no cost where none was reported. Each
// picture is taken in the light, dark and high-contrast themes: test-output/ui-readiness/<name>-<theme>.png.

const OUT = join(REPO_ROOT, 'test-output', 'ui-readiness');
const HOLD_AGENT = join(REPO_ROOT, 'test', 'fixtures', 'holdAgent.mjs');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern', 'high-contrast': 'Default High Contrast' };

interface StoredRun {
  id: string;
  taskId: string;
  attempt: number;
  state: string;
  failureCode?: string;
  failureReason?: string;
}
interface StoredTask {
  id: string;
  state: string;
  failureReason?: string;
  spec: { title: string };
}

describe('The daily loop in VS Code: readiness, fixes, safe cancel, honest numbers', function () {
  this.timeout(120_000);
  let workspace: TestWorkspace;
  let control: string;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let settings: Record<string, unknown> = {};

  const stored = (): { tasks: StoredTask[]; runs: StoredRun[] } =>
    JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8'));
  const task = (title: string): StoredTask | undefined => stored().tasks.find((t) => t.spec.title === title);
  const writeSettings = (next: Record<string, unknown>): void => {
    settings = next;
    writeFileSync(join(workspace.dir, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  };
  const cli = (...args: string[]): string =>
    execFileSync(process.execPath, [CLI, ...args], { cwd: workspace.dir, encoding: 'utf8', stdio: 'pipe' });

  /** The same picture in each theme (the workbench restyles itself when the setting changes), ending on dark. */
  const shotInThemes = async (name: string): Promise<void> => {
    for (const [theme, id] of [...Object.entries(THEMES).filter(([t]) => t !== 'dark'), ['dark', THEMES.dark]]) {
      writeSettings({ ...settings, 'workbench.colorTheme': id });
      await poll(`the ${theme} theme applied`, async () => {
        const classes = (await page.locator('.monaco-workbench').getAttribute('class')) ?? '';
        const want = theme === 'light' ? /\bvs\b(?!-)/ : theme === 'dark' ? /\bvs-dark\b/ : /\bhc-black\b/;
        return want.test(classes) ? true : undefined;
      });
      await page.waitForTimeout(600); // the colours of webviews and icons follow a moment later
      await page.screenshot({ path: join(OUT, `${name}-${theme}.png`) });
    }
  };

  /** The panel's page: a webview is an iframe (the host page) holding another iframe (the extension's page). */
  const panel = (): Promise<Frame> =>
    poll('the queue panel webview', async () => {
      for (const frame of page.frames()) {
        if (!frame.url().includes('/webview/') || !frame.parentFrame()?.url().includes('/webview/')) continue;
        if ((await frame.locator('#task-list').count()) > 0) return frame;
      }
      return undefined;
    });

  const toast = (text: string) => page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    control = mkdtempSync(join(tmpdir(), 'switchyard-daily-control-'));
    const removeFolders = (): void => {
      workspace.remove();
      rmSync(control, { recursive: true, force: true });
    };
    registerCleanup({ name: 'daily-loop test folders', run: async () => removeFolders(), runSync: removeFolders });
    // A fresh user: no lane configured yet.
    writeSettings({ 'switchyard.lanes': {}, 'workbench.colorTheme': THEMES.dark });
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1400, height: 900 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`);
    await workbench.waitReady();
    await workbench.openActivity('Switchyard'); // activates the extension
    await page.locator('.part.sidebar', { hasText: 'No tasks yet.' }).waitFor({ state: 'visible', timeout: 60_000 });
  });

  after(async function () {
    this.timeout(60_000);
    writeFileSync(join(control, 'release'), ''); // never leave an agent waiting
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await page
        .screenshot({ path: join(OUT, `failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`) })
        .catch(() => undefined);
  });

  it('shows the unconfigured command lane as not ready in the picker; Configure… opens its setting', async function () {
    this.timeout(180_000);
    await workbench.explorerContextMenu('src/hello.txt', 'Send to Lane…');
    await workbench.waitForPrompt('to which lane?');
    const row = workbench.quickPickRow('Command');
    await row.waitFor({ state: 'visible' });
    const text = await row.innerText();
    assert.match(text, /command · not ready/, 'the description says so');
    assert.match(text, /needs the "command" setting/, 'the reason is on the row');
    // Ready lanes come first: every row after the "not ready" separator is not ready, and the command lane is there.
    const rows = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').allInnerTexts();
    const firstUnready = rows.findIndex((r) => r.includes('not ready'));
    assert.ok(firstUnready >= 0, rows.join('\n'));
    assert.ok(
      rows.slice(firstUnready).every((r) => r.includes('not ready')),
      `no ready lane after an unready one:\n${rows.join('\n---\n')}`,
    );
    const configure = row.locator('.action-label[aria-label="Configure…"]');
    assert.equal(await configure.count(), 1, 'the row has its Configure… button');
    await row.hover();
    await shotInThemes('01-lane-picker-unready');
    // Picking the unready lane asks first: Configure… or use it anyway.
    await row.click();
    await workbench.waitForPrompt('Command is not ready');
    assert.ok(await workbench.quickPickRow('Use it anyway: Command').isVisible());
    await page.keyboard.press('Escape');
    // Its Configure… button opens the setting.
    await workbench.explorerContextMenu('src/hello.txt', 'Send to Lane…');
    await workbench.waitForPrompt('to which lane?');
    await row.hover();
    await configure.click();
    const setting = page.locator('.settings-editor .setting-item-contents', { hasText: 'Lanes' }).first();
    await setting.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await setting.innerText(), /Per-lane settings keyed by lane id/);
    await shotInThemes('02-configure-opens-setting');
    assert.equal(stored().tasks.length, 0, 'nothing was sent to the unready lane');
  });

  it('a missing key is not retried; the notification leads with the reason and has its fix', async function () {
    this.timeout(180_000);
    const agent = join(control, 'missingKey.sh');
    writeFileSync(agent, "echo 'error: OPENAI_API_KEY is not set' >&2\nexit 1\n");
    // "aider" is no registered lane: flagged, with the ids there are.
    writeSettings({ ...settings, 'switchyard.lanes': { command: { command: `sh ${agent}` }, aider: { model: 'x' } } });
    await page.keyboard.press('Escape');
    const stray = toast('names a lane that is not registered: "aider"');
    await stray.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await stray.innerText(), /Registered lanes: anthropic, claude-code, codex, command, cursor-agent/);
    await stray.locator('.codicon-notifications-clear, .codicon-close').first().click();
    await workbench.runCommand('View: Close All Editors'); // so that Open Settings below is what opens them
    await workbench.explorerContextMenu('src/hello.txt', 'Send to Lane…');
    await workbench.waitForPrompt('to which lane?');
    const row = workbench.quickPickRow('Command');
    await poll('the command lane ready now that it has its setting', async () =>
      /not ready/.test(await row.innerText()) ? undefined : true,
    );
    await row.click();
    await workbench.answer('Send src/hello.txt to Command', 'Summarize hello.txt');
    const failed = await poll('the task FAILED', async () => {
      const t = task('Summarize hello.txt');
      return t?.state === 'FAILED' ? t : undefined;
    });
    const runs = stored().runs.filter((r) => r.taskId === failed.id);
    assert.equal(runs.length, 1, 'one attempt: a missing key is permanent, never retried with the same input');
    assert.match(
      failed.failureReason ?? '',
      /^`sh .*missingKey\.sh` failed with exit code 1: error: OPENAI_API_KEY is not set; stderr: error: OPENAI_API_KEY/,
    );
    // The failure's own notification (the progress notification of the run says FAILED too).
    const note = page
      .locator('.notifications-toasts .notification-toast', { hasText: 'Summarize hello.txt failed' })
      .filter({ has: page.locator('.monaco-button', { hasText: 'Show Log' }) })
      .first();
    await note.waitFor({ state: 'visible', timeout: 30_000 });
    const message = await note.locator('.notification-list-item-message').innerText();
    // It leads with the reason in plain words (the agent's own error), then names the task and how it ended.
    assert.match(
      message,
      /^error: OPENAI_API_KEY is not set — Switchyard: \S+ · Summarize hello\.txt failed \(exit code 1\)/,
    );
    assert.doesNotMatch(message, /not retried|missingKey\.sh/, 'no retry notes or command line in the headline');
    const buttons = await note.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts();
    assert.deepEqual([...buttons].sort(), ['Open Settings', 'Retry', 'Show Log']);
    await shotInThemes('03-missing-key-notification');
    if (!(await note.isVisible())) await workbench.runCommand('Notifications: Show Notifications');
    assert.equal(await page.locator('.settings-editor').count(), 0, 'no Settings editor open before the click');
    await note.locator('.monaco-button', { hasText: 'Open Settings' }).click();
    // The folder's settings.json sets the lane, so Open Settings opens that file with the lane's key selected
    // (the Settings editor only when no file sets it).
    await workbench.waitForActiveTab(/settings\.json/);
    const selection = page.locator('.statusbar-item[id="status.editor.selection"]');
    assert.match(
      await poll('the lane key selected', async () => {
        const text = await selection.innerText().catch(() => '');
        return /selected/.test(text) ? text : undefined;
      }),
      /\(9 selected\)/,
      'the selection is "command" with its quotes',
    );
    assert.equal(await page.locator('.settings-editor').count(), 0, 'the file, not the Settings editor');
  });

  it('the Cancel picker lists running and ready tasks, running first and selected, and asks', async function () {
    this.timeout(180_000);
    writeSettings({
      ...settings,
      'switchyard.lanes': { command: { command: `${process.execPath} ${HOLD_AGENT} ${control}` } },
      'switchyard.runOnSend': false,
    });
    cli('task', 'add', '--title', 'Hold until released [hold]', '--spec', 'Write a note');
    const held = await poll('the held task in the state', async () => task('Hold until released [hold]'));
    await workbench.runCommand('Switchyard: Run Task');
    await workbench.waitForPrompt('Run which task?');
    await workbench.quickPickRow(`${held.id} · Hold until released [hold]`).click();
    await poll('the held task RUNNING', async () =>
      task('Hold until released [hold]')?.state === 'RUNNING' ? true : undefined,
    );
    cli('task', 'add', '--title', 'Queued behind it', '--spec', 'Another note');
    const queued = await poll('the queued task READY', async () => task('Queued behind it'));
    await workbench.runCommand('Switchyard: Cancel Task');
    await workbench.waitForPrompt('Cancel which task?');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible' });
    const listed = await rows.allInnerTexts();
    assert.equal(listed.length, 2, `the FAILED task is not offered:\n${listed.join('\n---\n')}`);
    assert.match(listed[0]!, new RegExp(`^${held.id} · Hold until released \\[hold\\][\\s\\S]*RUNNING`));
    assert.match(listed[1]!, new RegExp(`^${queued.id} · Queued behind it[\\s\\S]*READY`));
    assert.match(
      (await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused').innerText()) ?? '',
      new RegExp(`^${held.id} `),
      'the running task is the one an Enter picks',
    );
    await shotInThemes('04-cancel-picker');
    await page.keyboard.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(
      await dialog.innerText(),
      new RegExp(`Cancel ${held.id} · Hold until released \\[hold\\] \\(RUNNING\\)\\?`),
    );
    assert.equal(task('Hold until released [hold]')?.state, 'RUNNING', 'nothing canceled before the answer');
    await shotInThemes('05-cancel-confirm');
    await dialog.locator('.monaco-button', { hasText: 'Cancel Task' }).click();
    await poll('the held task CANCELED, its run recorded as canceled', async () => {
      const run = stored().runs.find((r) => r.taskId === held.id);
      return task('Hold until released [hold]')?.state === 'CANCELED' && run?.state === 'CANCELED' ? run : undefined;
    });
    assert.equal(stored().runs.find((r) => r.taskId === held.id)?.failureCode, 'canceled');
    assert.equal(task('Queued behind it')?.state, 'READY', 'the other task is untouched');
  });

  it('the panel shows no verify rate without acceptance commands and no cost without reported cost', async function () {
    this.timeout(180_000);
    await workbench.runCommand('Switchyard: Open Queue Panel');
    const frame = await panel();
    const lanes = await poll('the lane metrics of the command lane', async () => {
      const text = await frame
        .locator('#lanes')
        .innerText()
        .catch(() => '');
      return /command\s*default/.test(text) ? text : undefined;
    });
    assert.match(lanes, /no acceptance commands yet/);
    assert.doesNotMatch(lanes, /Verify pass[^\n]*\d+%/, 'no percentage for a rate over no sample');
    assert.match(lanes, /not reported/);
    assert.doesNotMatch(lanes, /\$\d/, 'no dollar figure when no run reported cost');
    assert.match(lanes, /1 canceled/, 'the canceled task is counted apart');
    assert.doesNotMatch(await frame.locator('#app').innerText(), /burn \$/, 'no burn rate without reported cost');
    await frame.locator('#lanes').scrollIntoViewIfNeeded();
    await workbench.runCommand('Notifications: Clear All Notifications');
    await page.mouse.move(5, 500);
    await shotInThemes('06-panel-honest-numbers');
  });
});
