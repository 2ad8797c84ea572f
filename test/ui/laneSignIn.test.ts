import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// Claude Code's readiness in a real VS Code (code-server + chromium, the packaged .vsix): a claude-code lane with a
// setting that does not parse and a CLI that is not signed in shows both problems in the lane picker; its Configure…
// button shows a notification listing them with one button per fix (Open Settings, Sign In, Set API Key); Sign In
// opens a terminal that runs the lane's `claude auth login` (its binary path, with a space and `$(…)` in it, passed
// as it is: no shell); once that terminal closes the lane is checked again and only the setting is left. The `claude`
// here is a stand-in script that answers `auth status --json` from a state file and signs in on `auth login` (the
// real CLI's status output is checked in test/integration/plugins/claude-code/realClaudeSignIn.test.ts).
// Pictures: test-output/ui-sign-in/.

const OUT = join(REPO_ROOT, 'test-output', 'ui-sign-in');

describe('Claude Code not signed in: every problem, and Sign In in a terminal (code-server + chromium)', function () {
  this.timeout(180_000);
  let workspace: TestWorkspace;
  let control: string;
  let claude: string;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  const savedKey = process.env.ANTHROPIC_API_KEY;

  const writeLanes = (lane: Record<string, unknown>): void =>
    writeFileSync(
      join(workspace.dir, '.vscode', 'settings.json'),
      `${JSON.stringify({ 'switchyard.lanes': { 'claude-code': lane } }, null, 2)}\n`,
    );
  const calls = (): string[] =>
    existsSync(join(control, 'calls')) ? readFileSync(join(control, 'calls'), 'utf8').split('\n').filter(Boolean) : [];
  const claudeRow = () => workbench.quickPickRow('Claude Code');
  const toast = (text: string) => page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();

  /** Opens the lane picker and waits until claude-code's row shows the result of its check. */
  async function openPicker(): Promise<string> {
    await workbench.runCommand('Switchyard: Set Project Default Lane');
    await workbench.waitForPrompt('Default lane for this project');
    return poll('the claude-code lane checked', async () => {
      const text = (
        await claudeRow()
          .innerText()
          .catch(() => '')
      ).replace(/\s+/g, ' ');
      return /not ready|Runs Anthropic/.test(text) ? text : undefined;
    });
  }

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    delete process.env.ANTHROPIC_API_KEY; // the code-server's environment: no key anywhere
    workspace = createTestWorkspace();
    control = mkdtempSync(join(tmpdir(), 'switchyard-sign-in-'));
    const remove = (): void => {
      workspace.remove();
      rmSync(control, { recursive: true, force: true });
    };
    registerCleanup({ name: 'sign-in test folders', run: async () => remove(), runSync: remove });
    // A path a shell would change: a space, and a command substitution.
    const dir = join(control, 'cli $(id)');
    mkdirSync(dir);
    claude = join(dir, 'claude');
    const state = join(control, 'signed-in');
    writeFileSync(
      claude,
      [
        '#!/bin/sh',
        `echo "$*" >> '${join(control, 'calls')}'`,
        'if [ "$1 $2" = "auth status" ]; then',
        `  if [ -f '${state}' ]; then echo '{"loggedIn": true, "authMethod": "claude.ai"}'; exit 0; fi`,
        `  echo '{"loggedIn": false, "authMethod": "none"}'; exit 1`,
        'fi',
        'if [ "$1 $2" = "auth login" ]; then',
        '  echo "Opening the browser to sign in to Claude…"',
        // Signs in once the test says so (the user finishing in the browser).
        `  while [ ! -f '${join(control, 'finish')}' ]; do sleep 0.1; done`,
        `  touch '${state}'; echo "Login successful."; exit 0`,
        'fi',
        'exit 2',
        '',
      ].join('\n'),
    );
    chmodSync(claude, 0o755);
    writeLanes({ binary: claude, extraArgs: '--verbose' });
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1500, height: 950 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`, { timeout: 120_000 });
    await workbench.waitReady();
    await workbench.openActivity('Switchyard'); // activates the extension
  });

  after(async function () {
    this.timeout(60_000);
    if (control) writeFileSync(join(control, 'finish'), ''); // never leave the stand-in waiting
    if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) {
      const name = `failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`;
      await page.screenshot({ path: join(OUT, name) }).catch(() => undefined);
    }
  });

  it('the lane picker shows both problems; Configure… lists them with one button per fix', async () => {
    const text = await openPicker();
    assert.match(text, /claude-code · not ready/);
    assert.match(text, /2 problems: \(1\) lane "claude-code" is misconfigured: extraArgs: "extraArgs" must be a list/);
    assert.match(
      text,
      /\(2\) lane "claude-code": Claude Code is not signed in and no ANTHROPIC_API_KEY is set: sign in \(`.*cli \$\(id\)\/claude auth login` in a terminal\)/,
    );
    assert.ok(calls().length > 0, 'the CLI was asked');
    assert.ok(
      calls().every((c) => c === 'auth status --json'),
      `for its status only: ${calls().join('; ')}`,
    );
    await claudeRow().hover();
    await page.screenshot({ path: join(OUT, '01-picker-two-problems.png') });
    await claudeRow().locator('.action-label[aria-label="Configure…"]').click();
    const note = toast('Claude Code is not ready');
    await note.waitFor({ state: 'visible', timeout: 30_000 });
    const message = await note.locator('.notification-list-item-message').innerText();
    assert.match(
      message,
      /^Switchyard: Claude Code is not ready: 2 problems: \(1\) .*misconfigured.* \(2\) .*not signed in/,
    );
    assert.match(message, /cli \$\(id\)\/claude auth login/, 'the path as written');
    const buttons = await note.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts();
    assert.deepEqual(buttons, ['Open Settings', 'Sign In', 'Set API Key']);
    await note.locator('.monaco-button', { hasText: 'Set API Key' }).waitFor({ state: 'visible' });
    await page.screenshot({ path: join(OUT, '02-problems-notification.png') });
  });

  it("Sign In opens a terminal running the lane's claude auth login; once it closes, only the setting is left", async () => {
    const note = toast('Claude Code is not ready');
    if (!(await note.isVisible())) await workbench.runCommand('Notifications: Show Notifications');
    await note.locator('.monaco-button', { hasText: 'Sign In' }).click();
    await poll('the stand-in asked to sign in', async () => (calls().includes('auth login') ? true : undefined));
    const panel = page.locator('.part.panel');
    await poll('the terminal shown, named for the lane and the fix', async () =>
      /Switchyard: claude-code · Sign In/.test(
        await panel
          .locator('.terminal-tabs-entry, .single-terminal-tab, .composite.title')
          .allInnerTexts()
          .then((t) => t.join(' '))
          .catch(() => ''),
      )
        ? true
        : undefined,
    );
    await page.screenshot({ path: join(OUT, '03-sign-in-terminal.png') });
    writeFileSync(join(control, 'finish'), ''); // the user signs in
    const after = toast('is misconfigured');
    await after.waitFor({ state: 'visible', timeout: 30_000 });
    const message = await after.locator('.notification-list-item-message').innerText();
    assert.match(message, /^Switchyard: Claude Code is not ready: lane "claude-code" is misconfigured: extraArgs/);
    assert.doesNotMatch(message, /not signed in/);
    assert.deepEqual(await after.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts(), [
      'Open Settings',
    ]);
    assert.deepEqual(calls().slice(-2), ['auth login', 'auth status --json'], 'checked again after the sign-in');
    await page.screenshot({ path: join(OUT, '04-checked-again.png') });
    // The setting fixed: the lane is ready.
    await workbench.runCommand('Notifications: Clear All Notifications');
    writeLanes({ binary: claude });
    await poll('claude-code ready in the picker', async () => {
      const text = await openPicker();
      if (/not ready/.test(text)) {
        await page.keyboard.press('Escape');
        return undefined;
      }
      return text;
    });
    await page.keyboard.press('Escape');
  });
});
