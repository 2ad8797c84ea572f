import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// Untrusted text stays text, in a real VS Code (code-server + chromium, the
// packaged .vsix): a `command`-lane agent (test/fixtures/hostileAgent.mjs)
// fails with stderr holding a `[fix](command:workbench.action.terminal.sendSequence?…)`
// Markdown link, a `[open a terminal](command:…)` link, an OSC 8 terminal
// hyperlink, ANSI colours, C1 controls and U+202E; the task's title holds a
// `command:` link and U+202E too. The FAILED notification, the Tasks tree's
// label and tooltip, and the queue panel show the words with no link element,
// no link role and no control or bidi character, and clicking the
// notification where the links would be runs nothing: no terminal opens and
// the file the sendSequence link would `touch` never appears.
// Pictures: test-output/ui/untrusted-text/.

const OUT = join(REPO_ROOT, 'test-output', 'ui', 'untrusted-text');
const AGENT = join(REPO_ROOT, 'test', 'fixtures', 'hostileAgent.mjs');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const ESC = '\u001b';
const TITLE = 'Docs [fail] [click me](command:workbench.action.terminal.new) photo\u202Egnp.exe';
const SPEC = `Write the docs. ${ESC}[31mred${ESC}[0m ${ESC}]8;;command:workbench.action.terminal.new${ESC}\\docs${ESC}]8;;${ESC}\\`;
/** C0 controls but tab and newline, DEL, C1 controls, bidi controls. */
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const SHOWN_TITLE = 'photo<U+202E>gnp.exe';
/**
 * A link as the workbench renders one: its Link widget is `<a class="monaco-link" href=…>`
 * (notifications, hovers); Markdown links have an href; anything may carry role="link".
 * (Tree labels and toolbar buttons are `<a>` elements without href: not links.)
 */
const LINK = 'a[href], [role="link"], .monaco-link, [data-href]';

interface StoredTask {
  id: string;
  state: string;
  failureReason?: string;
  spec: { title: string };
}

describe('Untrusted text stays text in VS Code (code-server + chromium)', function () {
  this.timeout(150_000);
  let workspace: TestWorkspace;
  let marker: string;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let taskId: string;

  const task = (): StoredTask =>
    (JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8')) as { tasks: StoredTask[] })
      .tasks[0]!;
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(OUT, name) });

  /**
   * What a DOM subtree holds that must not be there: link elements, link roles, hrefs, control or bidi characters (in
   * its raw text and its attributes).
   */
  const inspect = (root: Locator): Promise<{ text: string; links: number; linkHtml: string[]; bad: string[] }> =>
    root.evaluate(
      (el, [forbidden, link]) => {
        const re = new RegExp(forbidden);
        const bad: string[] = [];
        const text = el.textContent ?? '';
        if (re.test(text)) bad.push(`text: ${JSON.stringify(text)}`);
        for (const node of [el, ...Array.from(el.querySelectorAll('*'))]) {
          for (const attr of Array.from(node.attributes))
            if (re.test(attr.value)) bad.push(`${node.tagName}[${attr.name}]=${JSON.stringify(attr.value)}`);
        }
        const found = [el, ...Array.from(el.querySelectorAll('*'))].filter((node) => node.matches(link));
        return { text, links: found.length, linkHtml: found.map((node) => node.outerHTML.slice(0, 300)), bad };
      },
      [FORBIDDEN.source, LINK] as const,
    );

  /** Clicks the middle of the first occurrence of `needle` in the element's text, where a link would have been. */
  const clickText = async (root: Locator, needle: string): Promise<void> => {
    const box = await root.evaluate((el, n) => {
      const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = (node.textContent ?? '').indexOf(n);
        if (at < 0) continue;
        const range = el.ownerDocument.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + n.length);
        const r = range.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }
      return undefined;
    }, needle);
    assert.ok(box, `"${needle}" is in the shown text`);
    await page.mouse.click(box.x, box.y);
  };

  /** The terminals open in the panel. */
  const terminals = (): Promise<number> => page.locator('.terminal-wrapper').count();

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    marker = join(workspace.dir, 'touched-by-a-link');
    registerCleanup({
      name: 'untrusted-text workspace',
      run: async () => workspace.remove(),
      runSync: () => workspace.remove(),
    });
    const lanes = { command: { command: `${process.execPath} ${AGENT} ${marker}` } };
    writeFileSync(
      join(workspace.dir, '.vscode', 'settings.json'),
      `${JSON.stringify({ 'switchyard.lanes': lanes, 'switchyard.runOnSend': false }, null, 2)}\n`,
    );
    execFileSync(process.execPath, [CLI, 'task', 'add', '--title', TITLE, '--spec', SPEC], {
      cwd: workspace.dir,
      stdio: 'pipe',
    });
    taskId = task().id;
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
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await shot(`failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`).catch(() => undefined);
  });

  it('the FAILED notification shows the agent text with no link and no control character; clicking it runs nothing', async () => {
    await workbench.openActivity('Switchyard');
    await poll('the task in the Tasks tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.startsWith(`${taskId} · Docs`)) ? true : undefined,
    );
    // A terminal that runs what is typed into it: the target a live sendSequence link would type into.
    await workbench.runCommand('Terminal: Create New Terminal');
    const xterm = page.locator('.terminal-wrapper .xterm').first();
    await xterm.waitFor({ state: 'visible', timeout: 30_000 });
    const control = join(workspace.dir, 'typed-by-the-test');
    await poll(
      'the terminal running a command typed into it',
      async () => {
        await xterm.click();
        await page.keyboard.type(`touch ${control}`);
        await page.keyboard.press('Enter');
        await page.waitForTimeout(1_000);
        return existsSync(control) ? true : undefined;
      },
      40_000,
      0,
    );
    const openTerminals = await terminals();
    await workbench.runCommand('Switchyard: Run Queue');
    const failed = await poll(
      'the task FAILED after its attempts',
      async () => (task().state === 'FAILED' ? task() : undefined),
      100_000,
    );
    assert.match(
      failed.failureReason ?? '',
      /\u001b\[31;1merror/,
      'the stored reason is the raw stderr (the evidence), escaped only where shown',
    );

    // The toast: VS Code turns `[label](command:…)` in a notification into a link (<a>) unless it is broken up.
    // The failure's own notification: it leads with the agent's error, then names the task ("… failed").
    const toast = page
      .locator('.notifications-toasts .notification-toast', { hasText: `Switchyard: ${taskId} · Docs` })
      .filter({ has: page.locator('.monaco-button', { hasText: 'Show Log' }) })
      .first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    await toast.hover(); // a hovered toast stays
    // Expanded, the whole message shows (wrapped), so each word can be clicked where a link would be.
    const expand = toast.locator('.codicon-notifications-expand').first();
    if (await expand.isVisible()) await expand.click();
    await toast
      .locator('.notification-toast.expanded, .monaco-list-row')
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .catch(() => undefined);
    await page.waitForTimeout(300);
    const message = toast.locator('.notification-list-item-message');
    const shown = await inspect(message);
    console.log(`      notification: ${shown.text}`);
    assert.equal(shown.links, 0, `no link element or link role in the notification: ${shown.linkHtml.join('\n')}`);
    assert.deepEqual(shown.bad, [], 'no control or bidi character in the notification');
    assert.equal(await toast.locator(LINK).count(), 0, 'no link anywhere in the toast');
    assert.ok(
      shown.text.includes(
        `${taskId} · Docs [fail] [click me] (command:workbench.action.terminal.new) ${SHOWN_TITLE} failed`,
      ),
      shown.text,
    );
    assert.match(
      shown.text,
      /error: \[fix\] \(command:workbench\.action\.terminal\.sendSequence\?\S+ \[open a terminal\] \(command:workbench\.action\.terminal\.new\) open docs green photo<U\+202E>gnp\.exe/,
    );
    assert.ok(
      shown.text.indexOf('error: [fix]') < shown.text.indexOf(`Switchyard: ${taskId}`),
      `the agent's error leads, the task follows: ${shown.text}`,
    );
    await shot('01-failed-notification.png');

    // Where the links would have been: the words are text, a click does nothing.
    for (const words of ['[fix]', '[open a terminal]', '[click me]', 'open docs']) await clickText(message, words);
    await page.waitForTimeout(3_000);
    assert.equal(await terminals(), openTerminals, 'no terminal opened');
    assert.ok(!existsSync(marker), 'the sendSequence link typed nothing into the open terminal');
    assert.equal(await page.locator('.tabs-container .tab').count(), 0, 'no editor opened');
    await shot('02-after-clicking-the-text.png');
  });

  it('the Tasks tree shows the title and the failure as text: label and tooltip without links or control characters', async () => {
    await workbench.runCommand('Notifications: Clear All Notifications'); // the toast would cover the pictures
    await workbench.runCommand('View: Hide Panel');
    await workbench.openActivity('Switchyard');
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: `${taskId} · Docs` }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const label = await inspect(row);
    assert.deepEqual(label.bad, []);
    assert.equal(label.links, 0, label.linkHtml.join('\n'));
    assert.ok(
      label.text.includes(`${taskId} · Docs [fail] [click me](command:workbench.action.terminal.new) ${SHOWN_TITLE}`),
      label.text,
    );

    console.log(
      `      tree row: ${JSON.stringify(await row.innerText())}, label box ` +
        `${JSON.stringify(await row.locator('.label-name').first().boundingBox())}`,
    );
    await row.locator('.label-name').first().hover();
    const hover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'failure' }).first();
    await hover.waitFor({ state: 'visible', timeout: 15_000 });
    const tooltip = await inspect(hover);
    console.log(`      tooltip: ${tooltip.text.replace(/\s+/g, ' ').slice(0, 300)}`);
    assert.deepEqual(tooltip.bad, [], 'no control or bidi character in the tooltip');
    assert.equal(tooltip.links, 0, `no link element or link role in the tooltip: ${tooltip.linkHtml.join('\n')}`);
    assert.ok(tooltip.text.includes(SHOWN_TITLE), tooltip.text);
    assert.match(tooltip.text, /failure: .*\[fix\]\(command:workbench\.action\.terminal\.sendSequence/);
    assert.match(tooltip.text, /Write the docs\. red docs/, 'the spec without its escape sequences');
    await shot('03-tree-tooltip.png');
    await page.mouse.move(900, 600);
  });

  it('the queue panel shows the task, its reason and its history as text: no link, no control character', async () => {
    await workbench.runCommand('Switchyard: Open Queue Panel');
    const frame = await poll('the queue panel with the FAILED task', async (): Promise<Frame | undefined> => {
      for (const f of page.frames()) {
        if (!f.url().includes('/webview/') || !f.parentFrame()?.url().includes('/webview/')) continue;
        if (
          (
            (await f
              .locator(`[data-task-id="${taskId}"]`)
              .textContent()
              .catch(() => '')) ?? ''
          ).includes('open docs')
        )
          return f;
      }
      return undefined;
    });
    const app = frame.locator('#app');
    await frame.locator(`[data-task-id="${taskId}"]`).click();
    await poll('the run history', async () =>
      (await frame.locator('#detail table.runs tbody tr').count()) >= 2 ? true : undefined,
    );
    const shown = await inspect(app);
    assert.deepEqual(shown.bad, [], 'no control or bidi character in the panel (text or attributes)');
    assert.equal(shown.links, 0, `no link in the panel: ${shown.linkHtml.join('\n')}`);
    assert.ok(shown.text.includes(SHOWN_TITLE), 'the title, with its U+202E shown as a placeholder');
    assert.match(shown.text, /\[fix\]\(command:workbench\.action\.terminal\.sendSequence/);
    assert.match(shown.text, /open docs green photo<U\+202E>gnp\.exe/);
    await page.mouse.move(5, 500);
    await shot('04-queue-panel.png');
    assert.ok(!existsSync(marker), "nothing typed the link's command");
  });

  // QuickPick labels render `$(name)` as an icon (and drop a name that is no icon): a task title, a failure reason or
  // a file name in a picker is escaped (`\$(`) and reads as written.
  it('a picker shows a title holding $(…) as written, not as an icon', async () => {
    const title = 'Pay $(alert) now $(no-such-icon)';
    execFileSync(process.execPath, [CLI, 'task', 'add', '--title', title, '--spec', 'x'], {
      cwd: workspace.dir,
      stdio: 'pipe',
    });
    await workbench.openActivity('Switchyard');
    await poll('the new task in the tree', async () =>
      (await workbench.tasksUnder('READY')).some((r) => r.includes('Pay')) ? true : undefined,
    );
    await workbench.runCommand('Switchyard: Cancel Task');
    await workbench.waitForPrompt('Cancel which task?');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Pay' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const label = (await row.locator('.label-name').first().innerText()).replace(/\s+/g, ' ');
    await shot('05-picker.png');
    await page.keyboard.press('Escape');
    assert.match(label, /Pay \$\(alert\) now \$\(no-such-icon\)$/);
    assert.equal(await row.locator('.codicon').count(), 0, 'no icon rendered in the row');
  });
});
