import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { appendAgentCommand, createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll, THEMES, themedShots as shootInThemes } from './workbench';

// Review to merge in one place, and New Task that can run at once, in a real VS Code (code-server + chromium, the
// packaged .vsix): New Task with a target file and Submit & Run starts the run; the DONE notification keeps to two
// buttons and comes back after Open Changes; the diff editor of a DONE task's change carries Merge and Discard in its
// title, and Merge takes exactly that task's change; the pre-push guard is installed in a run started here and
// blocks a push it should. Pictures in the light, dark and high-contrast themes: test-output/ui-review/.

const OUT = join(REPO_ROOT, 'test-output', 'ui-review');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const TITLE = 'Greet from a new task';
const OTHER = 'Other work on the README';
const PUSHER = 'Push a half-resolved merge [push]';

interface StoredTask {
  id: string;
  state: string;
  lastRunId?: string;
  merged?: { runId: string; commit: string };
  discarded?: { runId: string };
  spec: { title: string; files: string[] };
}

describe('Review to merge and New Task’s Submit & Run (code-server + chromium)', function () {
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
  const task = (title: string): StoredTask | undefined => tasks().find((t) => t.spec.title === title);
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: workspace.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const writeSettings = (): void =>
    writeFileSync(join(workspace.dir, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  const toasts = (): Promise<string> =>
    page
      .locator('.notifications-toasts')
      .innerText()
      .catch(() => '');
  /** The DONE notification of a task (the newest one on screen). */
  const doneToast = (id: string, title: string) =>
    page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: `${id} · ${title} is DONE` })
      .last();
  const titleAction = (label: string) =>
    page.locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${label}"]`).first();
  const diffEditor = () => page.locator('.editor-group-container.active .monaco-component.multiDiffEditor');

  /** The same view in each theme: `<name>-light.png`, `-dark.png`, `-hc.png`; the dark theme stays on. */
  const themedShots = (name: string): Promise<void> =>
    shootInThemes(page, OUT, name, (theme) => {
      settings['workbench.colorTheme'] = theme;
      writeSettings();
    });

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    control = mkdtempSync(join(tmpdir(), 'switchyard-review-control-'));
    const removeFolders = (): void => {
      workspace.remove();
      rmSync(control, { recursive: true, force: true });
    };
    registerCleanup({ name: 'review test folders', run: async () => removeFolders(), runSync: removeFolders });
    // A remote the [push] task's agent pushes to: its push of a conflict marker must be refused by the hook.
    execFileSync('git', ['init', '-q', '--bare', join(control, 'remote.git')]);
    git('remote', 'add', 'origin', join(control, 'remote.git'));
    const log = join(control, 'push.log');
    const push = [
      `printf 'hello\\n<<<<<<< HEAD\\n' > src/hello.txt`,
      'git add src/hello.txt',
      'git -c user.name=Agent -c user.email=agent@switchyard.invalid commit -q --no-verify -m half-resolved',
      `{ git push origin HEAD:refs/heads/agent-push > '${log}' 2>&1; echo "push exit $?" >> '${log}'; }`,
    ].join(' && ');
    settings = {
      'switchyard.lanes': {
        command: {
          command: `case "$SWITCHYARD_TASK_TITLE" in *'[push]'*) ${push} ;; *) ${appendAgentCommand()} ;; esac`,
        },
      },
      'workbench.colorTheme': THEMES.dark,
    };
    writeSettings();
    const vsix = packageExtension(OUT);
    execFileSync(
      process.execPath,
      [CLI, 'task', 'add', '--title', OTHER, '--spec', 'A line for the README', '--file', 'README.md'],
      {
        cwd: workspace.dir,
        stdio: 'pipe',
      },
    );
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
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) {
      const name = `failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`;
      await page.screenshot({ path: join(OUT, name) }).catch(() => undefined);
      console.log(`      screenshot of the failure: test-output/ui-review/${name}`);
    }
  });

  it('New Task from src/hello.txt: the file is ticked as target; Submit & Run runs it without Run Queue', async function () {
    await workbench.openActivity('Switchyard');
    await poll('the CLI task under READY', async () =>
      (await workbench.tasksUnder('READY')).length === 1 ? true : undefined,
    );
    await workbench.openActivity('Explorer');
    const file = page.locator('.explorer-folders-view .monaco-list-row[aria-level="1"][aria-label="src"]');
    await file.click();
    await page.locator('.explorer-folders-view .monaco-list-row[aria-level="2"][aria-label="hello.txt"]').dblclick();
    await poll('hello.txt in the editor', async () =>
      /hello\.txt/.test(
        await page
          .locator('.tab.active')
          .innerText()
          .catch(() => ''),
      )
        ? true
        : undefined,
    );
    await workbench.runCommand('Switchyard: New Task');
    await poll('the task document in the editor', async () =>
      (await workbench.activeEditorText().catch(() => '')).includes('New Switchyard task') ? true : undefined,
    );
    await page.locator('.editor-group-container.active .monaco-editor.focused').waitFor({ state: 'visible' });
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(TITLE);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Add a greeting line.');
    await titleAction('Submit Task').waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.press('Control+Enter');
    await workbench.waitForPrompt('Lane for');
    await workbench.quickPickRow('Command').click();

    await workbench.waitForPrompt(`Target files of "${TITLE}"`);
    const ticked = page.locator('.quick-input-widget .quick-input-list .monaco-list-row[aria-checked="true"]');
    await poll('the editor file ticked', async () => ((await ticked.count()) === 1 ? true : undefined));
    assert.match(await ticked.innerText(), /^src\/hello\.txt/);
    await themedShots('01-new-task-target-files');
    await page.keyboard.press('Enter');

    await workbench.waitForPrompt(`Submit "${TITLE}"`);
    // (The list reuses the lane picker's rows: their hidden detail lines stay in the page.)
    const names = page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
    const labels = await poll('the two ways to submit', async () => {
      const shown = await names.filter({ visible: true }).allInnerTexts();
      return shown.length === 2 ? shown : undefined;
    });
    assert.deepEqual(labels, ['Submit & Run', 'Submit'], 'Submit & Run first, as switchyard.runOnSend is on');
    await themedShots('02-new-task-submit-and-run');
    await workbench.quickPickRow('Submit & Run').click();

    await workbench.openActivity('Switchyard');
    const done = await poll('the new task DONE, started without Run Queue', async () => {
      const t = task(TITLE);
      return t?.state === 'DONE' ? t : undefined;
    });
    assert.deepEqual(done.spec.files, ['src/hello.txt']);
    assert.equal(task(OTHER)?.state, 'READY', 'only the submitted task ran, not the queue');
    assert.equal(await page.locator('.tab', { hasText: /^Untitled-/ }).count(), 0, 'the task document was closed');
    const events = readFileSync(join(workspace.dir, '.switchyard', 'runs', done.lastRunId!, 'events.jsonl'), 'utf8');
    assert.match(events, /pre-push guard installed in/, 'the run started in VS Code got the pre-push guard');
    assert.doesNotMatch(events, /pre-push guard not installed/);
  });

  it('the DONE toast has two buttons, none cut off; after Open Changes it comes back with Merge', async function () {
    const done = task(TITLE)!;
    const toast = doneToast(done.id, TITLE);
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    const buttons = toast.locator('.monaco-button');
    assert.deepEqual(
      (await buttons.allInnerTexts()).map((b) => b.trim()),
      ['Open Changes', 'Merge'],
    );
    const box = (await toast.boundingBox())!;
    for (const button of await buttons.all()) {
      const b = (await button.boundingBox())!;
      assert.ok(b.x >= box.x && b.x + b.width <= box.x + box.width + 0.5, 'the button is inside the toast');
      assert.ok(await button.evaluate((e) => e.scrollWidth <= e.clientWidth), 'its label is not cut off');
    }
    await themedShots('03-done-toast');
    await buttons.filter({ hasText: 'Open Changes' }).click();

    await diffEditor().waitFor({ state: 'visible', timeout: 30_000 });
    await poll('the change in the diff editor', async () =>
      (
        await diffEditor()
          .innerText()
          .catch(() => '')
      )
        .replace(/\u00a0/g, ' ')
        .includes('Add a greeting line.')
        ? true
        : undefined,
    );
    await titleAction('Merge into Current Branch').waitFor({ state: 'visible', timeout: 30_000 });
    await titleAction('Discard Change').waitFor({ state: 'visible' });
    const again = doneToast(done.id, TITLE);
    await again.waitFor({ state: 'visible', timeout: 10_000 });
    assert.deepEqual(
      (await again.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()),
      ['Merge', 'Discard'],
      'the notification comes back offering Merge',
    );
    await page.mouse.move(700, 600);
    await themedShots('04-diff-merge-discard');
  });

  it("Merge in the diff editor's title merges exactly that task's change into main", async function () {
    // Another task's change is on the integration branch first; the merge must not bring it along.
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.openActivity('Switchyard');
    const other = task(OTHER)!;
    await workbench.treeContextMenu(`${other.id} · ${OTHER}`, 'Run Task');
    await poll('the other task DONE', async () => (task(OTHER)?.state === 'DONE' ? true : undefined), 90_000);
    await workbench.runCommand('Notifications: Clear All Notifications');

    const done = task(TITLE)!;
    const head = git('rev-parse', 'main');
    await workbench.treeContextMenu(`${done.id} · ${TITLE}`, 'Open Changes');
    await diffEditor().waitFor({ state: 'visible', timeout: 30_000 });
    await titleAction('Merge into Current Branch').click();
    const merged = await poll('the task merged', async () => task(TITLE)?.merged);
    assert.equal(merged.runId, done.lastRunId);
    assert.equal(git('rev-parse', 'main^'), head, 'one commit on main');
    assert.equal(git('diff', '--name-only', 'main^', 'main'), 'src/hello.txt', "only this task's change");
    assert.equal(git('show', 'main:src/hello.txt'), 'hello\nAdd a greeting line.');
    await poll('the merge notification', async () =>
      new RegExp(`merged switchyard/${done.id}/1 into main`).test(await toasts()) ? true : undefined,
    );
    await poll('Merge gone from the title (the change is merged)', async () =>
      (await titleAction('Merge into Current Branch').count()) === 0 ? true : undefined,
    );
  });

  it("Discard in the diff editor's title drops that task's change: branch deleted, marked discarded", async function () {
    const other = task(OTHER)!;
    const head = git('rev-parse', 'main');
    const branch = `switchyard/${other.id}/1`;
    assert.equal(git('branch', '--list', branch), branch);
    await workbench.treeContextMenu(`${other.id} · ${OTHER}`, 'Open Changes');
    await diffEditor().waitFor({ state: 'visible', timeout: 30_000 });
    await titleAction('Discard Change').click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await dialog.innerText(), new RegExp(`Discard the change of ${other.id} · ${OTHER}\\?`));
    await themedShots('05-discard-confirm');
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Discard Change' }).click();
    const discarded = await poll('the task marked discarded', async () => task(OTHER)?.discarded);
    assert.equal(discarded.runId, other.lastRunId);
    assert.equal(task(OTHER)?.state, 'DONE');
    // (The record comes first, then the branch goes: an effect after the transaction.)
    await poll('its branch deleted', async () => (git('branch', '--list', branch) === '' ? true : undefined));
    assert.equal(git('rev-parse', 'main'), head, 'main is untouched');
    await poll('the diff editor closed', async () => ((await diffEditor().count()) === 0 ? true : undefined));
    await poll('the row says so', async () =>
      (await workbench.tasksUnder('DONE')).some((r) => r.startsWith(`${other.id} ·`) && r.includes('change discarded'))
        ? true
        : undefined,
    );
  });

  it('a run started in VS Code has the pre-push guard: the agent’s push of a conflict marker is refused', async function () {
    execFileSync(process.execPath, [CLI, 'task', 'add', '--title', PUSHER, '--file', 'src/hello.txt'], {
      cwd: workspace.dir,
      stdio: 'pipe',
    });
    await workbench.runCommand('Notifications: Clear All Notifications');
    await poll('the push task in the tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.includes(PUSHER)) ? true : undefined,
    );
    const pusher = task(PUSHER)!;
    await workbench.treeContextMenu(`${pusher.id} · ${PUSHER}`, 'Run Task');
    const log = join(control, 'push.log');
    const pushed = await poll('the agent’s push answered', async () => {
      const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
      return /push exit \d+/.test(text) ? text : undefined;
    });
    assert.match(pushed, /switchyard pre-push guard: push blocked/, pushed);
    assert.match(pushed, /src\/hello\.txt:2: conflict marker/);
    assert.match(pushed, /push exit [1-9]/);
    assert.equal(
      execFileSync('git', ['branch', '--list', 'agent-push'], { cwd: join(control, 'remote.git'), encoding: 'utf8' }),
      '',
      'the remote did not get the branch',
    );
  });
});
