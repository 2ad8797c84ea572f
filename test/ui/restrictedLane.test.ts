import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// Restricted Mode in a real VS Code (code-server with Workspace Trust on, chromium, the packaged .vsix): the folder's
// .vscode/settings.json sets the command lane, VS Code ignores it because the folder is not trusted, and the lane
// picker says exactly that (not "needs the command setting") with Manage Workspace Trust as its fix.
// Pictures in the light, dark and high-contrast themes: test-output/ui-restricted/.

const OUT = join(REPO_ROOT, 'test-output', 'ui-restricted');
const THEMES = { light: 'Light Modern', dark: 'Dark Modern', hc: 'Dark High Contrast' } as const;

describe('Restricted Mode: a lane whose settings are ignored (code-server + chromium)', function () {
  this.timeout(120_000);
  let workspace: TestWorkspace;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    registerCleanup({
      name: 'restricted-mode workspace',
      run: async () => workspace.remove(),
      runSync: () => workspace.remove(),
    });
    const vsix = packageExtension(OUT);
    server = await startCodeServer({ workspaceTrust: true });
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1500, height: 950 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`, { timeout: 120_000 });
    await workbench.waitReady();
  });

  after(async function () {
    this.timeout(60_000);
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) {
      const name = `failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`;
      await page.screenshot({ path: join(OUT, name) }).catch(() => undefined);
    }
  });

  /** The lane picker's row of the command lane, once the lanes are checked. */
  const commandRow = () =>
    page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'command ·' }).first();

  async function openPicker(): Promise<string> {
    await workbench.runCommand('Switchyard: Set Project Default Lane');
    await workbench.waitForPrompt('Default lane for this project');
    return poll('the command lane checked', async () => {
      const text = (
        await commandRow()
          .innerText()
          .catch(() => '')
      ).replace(/\s+/g, ' ');
      return /not ready|Restricted Mode/.test(text) ? text : undefined;
    });
  }

  it('says the lane setting is ignored as the folder is not trusted; offers Manage Workspace Trust', async function () {
    await poll('Restricted Mode', async () =>
      /Restricted Mode/.test(await page.locator('.statusbar').innerText()) ? true : undefined,
    );
    await workbench.openActivity('Switchyard');
    const text = await openPicker();
    assert.match(text, /Restricted Mode/);
    assert.match(
      text,
      /its settings \(switchyard\.lanes in \.vscode\/settings\.json\) are ignored because this folder is not trusted/,
    );
    assert.doesNotMatch(text, /needs the "command" setting|misconfigured/);
    // A lane the folder's settings do not set is simply not configured: it keeps its own reason.
    const other = await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ hasText: 'openai-compatible ·' })
      .first()
      .innerText();
    assert.doesNotMatch(other, /Restricted Mode|not trusted/);
    for (const [key, theme] of Object.entries(THEMES)) {
      await page.keyboard.press('Escape');
      await workbench.runCommand('Preferences: Color Theme');
      await workbench.quickPickRow(theme).click();
      await poll(`the ${theme} theme`, async () =>
        (await page.locator('.monaco-workbench').getAttribute('class'))?.includes(
          key === 'light' ? 'vs ' : key === 'dark' ? 'vs-dark' : 'hc-black',
        )
          ? true
          : undefined,
      );
      await openPicker();
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(OUT, `01-restricted-lane-${key}.png`) });
    }
    await commandRow().hover();
    await commandRow().locator('.action-label[aria-label="Manage Workspace Trust"]').click();
    await poll('the Workspace Trust editor', async () =>
      /Workspace Trust/.test(
        await page
          .locator('.tab.active')
          .innerText()
          .catch(() => ''),
      )
        ? true
        : undefined,
    );
  });
});
