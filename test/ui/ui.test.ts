import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { runAllCleanups, registerCleanup } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension, zipEntries } from './vsix';
import { Workbench, poll } from './workbench';

// A person's view: the packaged .vsix installed into code-server, the
// workspace opened in headless chromium, and every step done with the mouse
// and keyboard. Screenshots go to test-output/ui/; with UPDATE_SCREENSHOT=1
// the README's media/screenshot.png is refreshed too.

const OUT = join(REPO_ROOT, 'test-output', 'ui');

interface StoredTask {
  id: string;
  state: string;
  failureReason?: string;
  spec: { title: string; files: string[] };
}

describe('Switchyard UI (code-server + chromium)', function () {
  this.timeout(120_000);
  let vsix: string;
  let workspace: TestWorkspace;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;

  const tasks = (): StoredTask[] =>
    (JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8')) as { tasks: StoredTask[] })
      .tasks;
  const shot = (name: string, fullPage = false): Promise<Buffer> =>
    page.screenshot({ path: join(OUT, name), fullPage });

  before(async function () {
    this.timeout(240_000);
    rmSync(OUT, { recursive: true, force: true }); // no stale pictures from an earlier run
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    registerCleanup({ name: 'test workspace', run: async () => workspace.remove(), runSync: () => workspace.remove() });
  });

  after(async function () {
    this.timeout(60_000);
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) {
      const name = `failure-${this.currentTest.title.replace(/[^\w]+/g, '-').slice(0, 60)}.png`;
      await page.screenshot({ path: join(OUT, name) }).catch(() => undefined);
      console.log(`      screenshot of the failure: test-output/ui/${name}`);
    }
  });

  it('packages a .vsix with the bundles, media, manifest and README only', function () {
    this.timeout(180_000);
    vsix = packageExtension(OUT);
    const files = zipEntries(vsix)
      .filter((f) => f.startsWith('extension/'))
      .map((f) => f.slice('extension/'.length));
    // vsce stores the README as readme.md.
    for (const needed of [
      'package.json',
      'readme.md',
      'switchyard.d.ts',
      'dist/extension.js',
      'dist/extensionRuntime.js',
      'dist/package.json',
      'dist/webview.js',
      // The programs the runtime starts (scripts/ownPrograms.mjs): a run's processes go through the supervisor.
      'dist/supervisorMain.js',
      'dist/folderRemoverWorker.js',
      'media/switchyard.svg',
    ]) {
      assert.ok(
        files.some((f) => f.toLowerCase() === needed.toLowerCase()),
        `the .vsix contains ${needed}; it has: ${files.join(', ')}`,
      );
    }
    const unwanted = files.filter(
      (f) =>
        /^(src|test|out|node_modules|\.vscode-test|test-output|scripts|plugins|webview)\//.test(f) ||
        f.endsWith('.map') ||
        (f.endsWith('.ts') && f !== 'switchyard.d.ts'),
    );
    assert.deepEqual(unwanted, [], 'sources, tests, node_modules and maps stay out of the .vsix');
    console.log(
      `      switchyard.vsix: ${statSync(vsix).size} bytes, ${files.length} files; dist/extension.js: ${statSync(join(REPO_ROOT, 'dist', 'extension.js')).size} bytes`,
    );
  });

  it('installs into code-server and opens the workspace in the browser', async function () {
    this.timeout(180_000);
    assert.ok(vsix, 'packaged in the previous step');
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`);
    await workbench.waitReady();
  });

  it('shows the Switchyard Tasks view from the activity bar', async function () {
    await workbench.openActivity('Switchyard');
    const header = page.locator('.part.sidebar .composite.title', { hasText: /Switchyard/i });
    await header.waitFor({ state: 'visible', timeout: 30_000 });
    // The view's welcome content appears once the extension has activated and found no tasks.
    await page.locator('.part.sidebar', { hasText: 'No tasks yet.' }).waitFor({ state: 'visible', timeout: 60_000 });
    await shot('01-switchyard-view.png');
  });

  it('creates a task from the palette (F1 > Switchyard: New Task): a task document, submitted', async function () {
    const title = 'Write release notes for 2.0: the queue panel, the run output, the diff editor and merging';
    await workbench.runCommand('Switchyard: New Task');
    // An untitled Markdown document: the title on the first line, the instruction below, as long as it needs.
    await poll('the task document in the editor', async () =>
      (await workbench.activeEditorText().catch(() => '')).includes('New Switchyard task') ? true : undefined,
    );
    // A person waits for the cursor in the editor (the palette hands the focus back) before typing.
    await page.locator('.editor-group-container.active .monaco-editor.focused').waitFor({ state: 'visible' });
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Summarize what changed for users.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('One paragraph per feature.');
    await shot('01b-task-document.png');
    // Ctrl+Enter is Submit Task only while the editor is known as a task document (the context key the extension host
    // sets): a person sees that as the Submit Task button in the editor's title. On a loaded machine the key can
    // arrive after the typing, and Ctrl+Enter before it inserts a line instead.
    await page
      .locator('.editor-group-container.active .action-label[aria-label^="Submit Task"]')
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.press('Control+Enter'); // Submit Task
    await workbench.waitForPrompt('Lane for').catch(async (error: Error) => {
      throw new Error(`${error.message}\nthe task document then read: ${await workbench.activeEditorText()}`);
    });
    await workbench.quickPickRow('Command').click();
    // Target files are optional (none ticked: the palette was the last place, not a file); then Submit only queues.
    await workbench.waitForPrompt('Target files of');
    await page.keyboard.press('Enter');
    await workbench.waitForPrompt('Submit "');
    await workbench.quickPickRow('Submit').click();

    const ready = await poll('the new task under READY in the Tasks tree', async () => {
      const rows = await workbench.tasksUnder('READY');
      return rows.find((r) => r.includes('Write release notes'));
    });
    assert.match(ready, /^t\d+ · Write release notes/);
    const stored = tasks().find((t) => t.spec.title === title);
    assert.ok(stored, `the state file has the task with its whole title (${title.length} characters)`);
    assert.equal(stored.state, 'READY', 'the state file has the task as READY');
    assert.equal(
      (stored as unknown as { spec: { spec: string } }).spec.spec,
      'Summarize what changed for users.\nOne paragraph per feature.',
    );
    assert.equal(await page.locator('.tab', { hasText: 'Untitled' }).count(), 0, 'the task document was closed');
  });

  it('sends src/hello.txt to the command lane from the Explorer and shows the task DONE', async function () {
    await workbench.explorerContextMenu('src/hello.txt', 'Send to Lane…');
    await workbench.waitForPrompt('to which lane?');
    await page.locator('.quick-input-widget .quick-input-box input').fill('command');
    const laneRow = workbench.quickPickRow('Command');
    await laneRow.waitFor({ state: 'visible' });
    await shot('02-lane-quick-pick.png');
    await laneRow.click();
    const instruction = 'Say hello from the command lane';
    await workbench.answer('Send src/hello.txt to Command', instruction);

    await workbench.openActivity('Switchyard');
    const row = await poll('the sent task under DONE in the Tasks tree', async () => {
      const rows = await workbench.tasksUnder('DONE');
      return rows.find((r) => r.includes(instruction));
    });
    const task = tasks().find((t) => t.spec.title === instruction);
    assert.ok(task, 'the state file has the sent task');
    assert.equal(task.state, 'DONE', task.failureReason);
    assert.deepEqual(task.spec.files, ['src/hello.txt']);
    assert.match(row, new RegExp(`^${task.id} · ${instruction} command · DONE`));

    await workbench.expandRow(`${task.id} · ${instruction}`);
    await poll('the run row of the DONE task', async () =>
      (await workbench.sideBarTreeRows()).some((r) => r.text.startsWith(`${task.id}.1`) && r.text.includes('SUCCEEDED'))
        ? true
        : undefined,
    );
    assert.equal(
      readFileSync(join(workspace.dir, 'src', 'hello.txt'), 'utf8'),
      'hello\n',
      "the user's own copy of the file is untouched",
    );
  });

  it('runs the rest of the queue from the palette (Switchyard: Run Queue): both tasks DONE', async function () {
    await workbench.runCommand('Switchyard: Run Queue');
    await poll('both tasks under DONE', async () =>
      (await workbench.tasksUnder('DONE')).length === 2 ? true : undefined,
    );
    assert.deepEqual(
      tasks().map((t) => t.state),
      ['DONE', 'DONE'],
    );
    await page.mouse.move(900, 450); // no hover tooltip in the pictures
    await shot('03-done-tree.png');
  });

  it('shows both DONE tasks in the queue panel (a webview)', async function () {
    await workbench.runCommand('Switchyard: Open Queue Panel');
    const text = await poll('the queue panel listing both tasks as DONE', async () => {
      // A webview is an iframe (the host page) holding another iframe (the extension's page).
      for (const frame of page.frames()) {
        if (!frame.url().includes('/webview/') || !frame.parentFrame()?.url().includes('/webview/')) continue;
        const body = await frame
          .locator('body')
          .innerText()
          .catch(() => '');
        if (tasks().every((t) => body.includes(t.id)) && (body.match(/DONE/g) ?? []).length >= 2) return body;
      }
      return undefined;
    });
    assert.match(text, /Write release notes/);
    assert.match(text, /Say hello from the command lane/);
    await shot('04-queue-panel.png');
  });

  it("opens a run's diff from the tree's context menu (Show Run Diff)", async function () {
    const sent = tasks().find((t) => t.spec.files.includes('src/hello.txt'))!;
    await workbench.resizeSideBar(520);
    await workbench.treeContextMenu(`${sent.id}.1`, 'Show Run Diff');
    // VS Code's multi-file diff editor: the task's base on the left, the run's commit on the right.
    const editor = page.locator('.editor-group-container.active .monaco-component.multiDiffEditor');
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await poll('the diff editor', async () => {
      const shown = (await editor.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
      return shown.includes('Say hello from the command lane') ? shown : undefined;
    });
    assert.match(text, /hello\.txt/);
    await page.mouse.move(900, 700);
    await page.waitForTimeout(1_000); // let the diff's colouring arrive before the picture
    await shot('05-run-diff.png');
    if (process.env.UPDATE_SCREENSHOT === '1') {
      await page.screenshot({ path: join(REPO_ROOT, 'media', 'screenshot.png'), fullPage: true });
      console.log('      updated media/screenshot.png');
    }
  });
});
