import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// A tidy Tasks view in a real VS Code (code-server + chromium, the packaged .vsix): Approve on a DRAFT row, and the
// view's filter (states and text), which the message above the tree names, Clear Filter ends, and a reload keeps.
// Pictures in the light, dark and high-contrast themes: test-output/ui-tidy/.

const OUT = join(REPO_ROOT, 'test-output', 'ui-tidy');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern', hc: 'Default High Contrast' } as const;

interface StoredState {
  tasks: { id: string; state: string; spec: { title: string } }[];
  runs: unknown[];
}

describe('A tidy Tasks view: Approve drafts, filter tasks (code-server + chromium)', function () {
  this.timeout(120_000);
  let workspace: TestWorkspace;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let settings: Record<string, unknown>;

  const stored = (): StoredState =>
    JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8')) as StoredState;
  const task = (title: string) => stored().tasks.find((t) => t.spec.title === title)!;
  const writeSettings = (): void =>
    writeFileSync(join(workspace.dir, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  const addTask = (title: string, ...extra: string[]): void => {
    execFileSync(process.execPath, [CLI, 'task', 'add', '--title', title, '--spec', `Note for: ${title}`, ...extra], {
      cwd: workspace.dir,
      stdio: 'pipe',
    });
  };
  /** The message a person sees above the Tasks tree ('' when none shows). */
  const message = async (): Promise<string> => {
    const box = page.locator('.part.sidebar .message').first();
    return (await box.isVisible().catch(() => false)) ? (await box.innerText()).replace(/\s+/g, ' ') : '';
  };
  const titleButton = (label: string) =>
    page.locator(`.part.sidebar .title-actions .action-label[aria-label^="${label}"]`).first();

  async function themedShots(name: string): Promise<void> {
    for (const [key, theme] of Object.entries(THEMES)) {
      settings['workbench.colorTheme'] = theme;
      writeSettings();
      await poll(`the ${theme} theme`, async () =>
        (await page.locator('.monaco-workbench').getAttribute('class'))?.includes(
          key === 'light' ? 'vs ' : key === 'dark' ? 'vs-dark' : 'hc-black',
        )
          ? true
          : undefined,
      );
      await page.waitForTimeout(800); // the theme's colours reach every part
      await page.screenshot({ path: join(OUT, `${name}-${key}.png`) });
    }
    settings['workbench.colorTheme'] = THEMES.dark;
    writeSettings();
  }

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    registerCleanup({ name: 'tidy tree test folder', run: async () => workspace.remove(), runSync: workspace.remove });
    settings = {
      // A lane that would leave a mark if anything ran: nothing here should.
      'switchyard.lanes': { command: { command: `${process.execPath} -e "process.exit(3)"` } },
      'workbench.colorTheme': THEMES.dark,
    };
    writeSettings();
    addTask('Sketch the importer', '--draft');
    addTask('Fix the parser');
    addTask('Write the docs');
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1400, height: 900 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`, { timeout: 120_000 });
    await workbench.waitReady();
    await workbench.openActivity('Switchyard');
    await workbench.resizeSideBar(520);
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

  it('Approve on a DRAFT row makes it READY and starts nothing', async function () {
    const draft = task('Sketch the importer');
    assert.equal(draft.state, 'DRAFT');
    const label = `${draft.id} · Sketch the importer`;
    await poll('the draft under DRAFT', async () =>
      (await workbench.tasksUnder('DRAFT')).some((r) => r.startsWith(label)) ? true : undefined,
    );
    const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: label }).first();
    await row.hover();
    const approve = row.locator('.actions .action-label[aria-label="Approve Task"]');
    await approve.waitFor({ state: 'visible' });
    await page.screenshot({ path: join(OUT, '01-draft-approve-button.png') });
    await approve.click();
    await poll('the draft READY in the records', async () =>
      task('Sketch the importer').state === 'READY' ? true : undefined,
    );
    await poll('the task under READY in the tree, no DRAFT group', async () => {
      const rows = await workbench.sideBarTreeRows();
      const ready = await workbench.tasksUnder('READY');
      return ready.some((r) => r.startsWith(label)) && !rows.some((r) => r.level === 1 && r.text.startsWith('DRAFT'))
        ? true
        : undefined;
    });
    const after = stored();
    assert.deepEqual(
      after.tasks.map((t) => t.state),
      ['READY', 'READY', 'READY'],
      'the other tasks are as they were',
    );
    assert.equal(after.runs.length, 0, 'nothing ran');
  });

  it('Filter Tasks… hides the tasks that do not match, the message above the tree says the filter; a reload keeps it', async function () {
    const parser = task('Fix the parser');
    const docs = task('Write the docs');
    await titleButton('Filter Tasks').click();
    await workbench.waitForPrompt('Filter Tasks (1/2)');
    await workbench.quickPickRow('READY').click(); // a multi-select pick: the click ticks the row
    await poll('READY ticked', async () =>
      /1 Selected/.test(
        await page
          .locator('.quick-input-widget .quick-input-count')
          .innerText()
          .catch(() => ''),
      )
        ? true
        : undefined,
    );
    await page.keyboard.press('Enter');
    await workbench.answer('Filter Tasks (2/2)', 'PARSER');
    const filtered = async (): Promise<true | undefined> => {
      const ready = await workbench.tasksUnder('READY');
      return ready.length === 1 && ready[0]!.startsWith(`${parser.id} · Fix the parser`) ? true : undefined;
    };
    await poll('only the parser task in the tree', filtered);
    await poll('the message names the filter', async () =>
      (await message()).includes('Filter: READY · “PARSER” (1 of 3 tasks shown)') ? true : undefined,
    );
    assert.ok(
      !(await workbench.sideBarTreeRows()).some((r) => r.text.startsWith(`${docs.id} ·`)),
      'the docs task is hidden',
    );
    await themedShots('02-filtered');
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget .quick-input-box input').fill('>Developer: Reload Window');
    await workbench.quickPickRow('Developer: Reload Window').click();
    await workbench.waitReady();
    await workbench.openActivity('Switchyard');
    await poll('still filtered after the reload', filtered, 60_000);
    await poll('the message after the reload', async () =>
      (await message()).includes('Filter: READY · “PARSER” (1 of 3 tasks shown)') ? true : undefined,
    );
  });

  it('Clear Filter shows every task again and the filter message goes', async function () {
    await titleButton('Clear Filter').click();
    await poll('all three tasks back', async () =>
      (await workbench.tasksUnder('READY')).length === 3 ? true : undefined,
    );
    await poll('no filter message', async () => ((await message()).includes('Filter:') ? undefined : true));
    assert.equal(await titleButton('Clear Filter').count(), 0, 'Clear Filter is offered only while filtering');
  });
});
