import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// The daily loop in a real VS Code (code-server + chromium, the packaged .vsix): a run's output channel shows the
// lane's lines while it runs, Show Run Diff opens the multi-file diff editor, and Merge into Current Branch refuses
// on uncommitted changes, then brings the change into the checked-out branch. Pictures in the light, dark and
// high-contrast themes: test-output/ui-daily/.

const OUT = join(REPO_ROOT, 'test-output', 'ui-daily');
const HOLD_AGENT = join(REPO_ROOT, 'test', 'fixtures', 'holdAgent.mjs');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern', hc: 'Default High Contrast' } as const;

interface StoredTask {
  id: string;
  state: string;
  failureReason?: string;
  spec: { title: string };
}

describe('The daily loop in VS Code (code-server + chromium)', function () {
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
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: workspace.dir, encoding: 'utf8', stdio: 'pipe' }).trim();
  const writeSettings = (): void =>
    writeFileSync(join(workspace.dir, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);

  /** The same view in each theme: `<name>-light.png`, `-dark.png`, `-hc.png`; the dark theme stays on. */
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
      await page.mouse.move(5, 500);
      await page.screenshot({ path: join(OUT, `${name}-${key}.png`) });
    }
    settings['workbench.colorTheme'] = THEMES.dark;
    writeSettings();
  }

  /** The text of the notifications on screen. */
  const toasts = (): Promise<string> =>
    page
      .locator('.notifications-toasts')
      .innerText()
      .catch(() => '');

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
    registerCleanup({ name: 'daily loop test folders', run: async () => removeFolders(), runSync: removeFolders });
    settings = {
      'switchyard.lanes': { command: { command: `${process.execPath} ${HOLD_AGENT} ${control}` } },
      'workbench.colorTheme': THEMES.dark,
    };
    writeSettings();
    for (const title of ['Stream the output [hold]', 'Write the release note']) {
      execFileSync(process.execPath, [CLI, 'task', 'add', '--title', title, '--spec', `Note for: ${title}`], {
        cwd: workspace.dir,
        stdio: 'pipe',
      });
    }
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1500, height: 950 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`);
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

  it('offers in the palette only the commands that apply (no canary, no DONE task yet)', async function () {
    await workbench.openActivity('Switchyard'); // activates the extension
    await poll('both tasks under READY', async () =>
      (await workbench.tasksUnder('READY')).length === 2 ? true : undefined,
    );
    const palette = async (query: string): Promise<string> => {
      await page.keyboard.press('F1');
      const box = page.locator('.quick-input-widget .quick-input-box input');
      await box.waitFor({ state: 'visible' });
      await box.fill(`>${query}`);
      await page.waitForTimeout(500);
      const text = await workbench.quickInput().innerText();
      await page.keyboard.press('Escape');
      return text;
    };
    assert.match(await palette('Switchyard: Run Queue'), /Switchyard: Run Queue/, 'the palette lists what applies');
    for (const hidden of [
      'Rollback Canary',
      'Show Canary Report',
      'Set PostgreSQL Connection String',
      'Promote Salvage',
      'Merge into Current Branch',
    ]) {
      const text = await palette(`Switchyard: ${hidden}`);
      assert.doesNotMatch(text, new RegExp(`Switchyard: ${hidden}`), `${hidden} is not offered`);
      assert.match(text, /Results|No matching commands/, 'the palette answered the query');
    }
  });

  it("shows the lane's lines in the run's output channel while it runs (Show Run Log)", async function () {
    await workbench.openActivity('Switchyard');
    await poll('both tasks under READY', async () =>
      (await workbench.tasksUnder('READY')).length === 2 ? true : undefined,
    );
    await workbench.runCommand('Switchyard: Run Queue');
    const held = await poll('the held task RUNNING', async () => {
      const t = task('Stream the output [hold]');
      return t?.state === 'RUNNING' ? t : undefined;
    });
    await poll('the held task under RUNNING in the tree', async () =>
      (await workbench.tasksUnder('RUNNING')).some((r) => r.startsWith(held.id)) ? true : undefined,
    );
    await workbench.expandRow(`${held.id} · Stream the output`);
    // The run row's inline Show Run Log button (the same command is in its context menu).
    const runRow = page
      .locator('.part.sidebar .monaco-list-row')
      .filter({ hasText: `${held.id}.1` })
      .first();
    // Inline actions show while the row is hovered; the row is redrawn every second, which can drop the hover before
    // the click: hover again and retry.
    await poll('the Show Run Log button clicked', async () => {
      await runRow.hover();
      return runRow
        .locator('.actions .action-label[aria-label="Show Run Log"]')
        .click({ timeout: 2_000 })
        .then(() => true)
        .catch(() => undefined);
    });
    // The running row is redrawn every second (its duration); a click that lands while VS Code redraws it runs the
    // command without the row, and the command then asks which run (the running one first): pick it.
    const asked = await workbench
      .waitForPrompt('Show the output of which run?', 2_000)
      .then(() => true)
      .catch(() => false);
    if (asked) await workbench.quickPickRow(`${held.id}.1`).click();
    const output = page.locator('.part.panel .monaco-editor .view-lines').first();
    const text = await poll('the run output with the lane line', async () => {
      const shown = (await output.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
      return shown.includes(`[stdout] holdAgent: ${held.id} is working, held until released`) ? shown : undefined;
    });
    assert.match(text, new RegExp(`— run ${held.id}\\.1 started: task ${held.id} on lane command`));
    assert.equal(task('Stream the output [hold]').state, 'RUNNING', 'the lines were shown while the run ran');
    const selected = await page
      .locator('select.monaco-select-box')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLSelectElement).selectedOptions[0]?.text ?? ''));
    assert.ok(
      selected.includes(`Switchyard: ${held.id} · Stream the output [hold]`),
      `the Output view shows the task's channel: ${selected}`,
    );
    await workbench.runCommand('Notifications: Toggle Do Not Disturb Mode'); // the progress toast covers the output
    await themedShots('01-run-output');
    await workbench.runCommand('Notifications: Toggle Do Not Disturb Mode');
    writeFileSync(join(control, 'release'), '');
    await poll('both tasks DONE', async () => (tasks().every((t) => t.state === 'DONE') ? true : undefined), 90_000);
  });

  it('Show Run Diff opens the multi-file diff editor on the run commit', async function () {
    const note = task('Write the release note');
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.resizeSideBar(460);
    await workbench.expandRow(`${note.id} · Write the release note`);
    await workbench.treeContextMenu(`${note.id}.1`, 'Show Run Diff');
    const editor = page.locator('.editor-group-container.active .monaco-component.multiDiffEditor');
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await poll('the diff editor with the added note', async () => {
      const shown = (await editor.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
      return shown.includes('Note for: Write the release note') ? shown : undefined;
    });
    assert.match(text, new RegExp(`notes/${note.id}\\.md|${note.id}\\.md`));
    assert.match(await page.locator('.tab.active').innerText(), new RegExp(`${note.id}\\.1`));
    await themedShots('02-run-diff');
  });

  it('Merge into Current Branch refuses on uncommitted changes, then brings the change into main', async function () {
    const note = task('Write the release note');
    const readme = join(workspace.dir, 'README.md');
    const original = readFileSync(readme, 'utf8');
    const head = git('rev-parse', 'HEAD');
    writeFileSync(readme, `${original}my unsaved work\n`);
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.runCommand('Switchyard: Merge into Current Branch');
    await workbench.waitForPrompt('Merge the change of which task?');
    await workbench.quickPickRow(`${note.id} · Write the release note`).click();
    await poll('the refusal naming the uncommitted file', async () =>
      /uncommitted changes in README\.md/.test(await toasts()) ? true : undefined,
    );
    assert.equal(readFileSync(readme, 'utf8'), `${original}my unsaved work\n`, 'the uncommitted change is kept');
    assert.equal(git('rev-parse', 'HEAD'), head, 'nothing was merged');
    await themedShots('03-merge-refused');

    writeFileSync(readme, original);
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.runCommand('Switchyard: Merge into Current Branch');
    await workbench.waitForPrompt('Merge the change of which task?');
    await workbench.quickPickRow(`${note.id} · Write the release note`).click();
    await poll('the merge notification', async () =>
      new RegExp(`merged switchyard/${note.id}/1 into main`).test(await toasts()) ? true : undefined,
    );
    assert.equal(git('rev-parse', '--abbrev-ref', 'HEAD'), 'main');
    // One new commit on main (cherry-pick style, not a merge of the run branch): its only parent is main's previous
    // tip, it carries the task's change, and its message names the task.
    assert.equal(git('rev-parse', 'HEAD^@'), head, "the new commit's only parent is main's previous tip");
    assert.ok(existsSync(join(workspace.dir, 'notes', `${note.id}.md`)), 'the change is in the checked-out branch');
    assert.equal(
      git('show', `HEAD:notes/${note.id}.md`),
      git('show', `switchyard/${note.id}/1:notes/${note.id}.md`),
      "the commit holds the task's change",
    );
    assert.equal(git('diff', '--name-only', 'HEAD^', 'HEAD'), `notes/${note.id}.md`, "only the task's change");
    assert.match(git('log', '-1', '--format=%B', 'HEAD'), new RegExp(`Switchyard task ${note.id}, run ${note.id}\\.1`));
    await themedShots('04-merged');
  });
});
