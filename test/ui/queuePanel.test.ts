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

// The queue panel in a real VS Code (code-server + chromium, the packaged
// .vsix): opened from the status bar, it shows a running queue of real
// `command`-lane runs (a fixture agent held RUNNING until the test releases
// it, and one that fails), and Retry in the panel starts a new attempt. The
// panel comes back after a window reload. Pictures: test-output/ui-panel/;
// with UPDATE_SCREENSHOT=1 also media/panel.png (docs/vscode.md's).

const OUT = join(REPO_ROOT, 'test-output', 'ui-panel');
const HOLD_AGENT = join(REPO_ROOT, 'test', 'fixtures', 'holdAgent.mjs');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');

interface StoredRun {
  id: string;
  taskId: string;
  attempt: number;
  state: string;
  failureReason?: string;
}
interface StoredTask {
  id: string;
  state: string;
  failureReason?: string;
  attempts: number;
  spec: { title: string };
}

describe('Queue panel in VS Code (code-server + chromium)', function () {
  this.timeout(120_000);
  let workspace: TestWorkspace;
  let control: string;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;

  const stored = (): { tasks: StoredTask[]; runs: StoredRun[] } =>
    JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8'));
  const task = (title: string): StoredTask => stored().tasks.find((t) => t.spec.title === title)!;
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(OUT, name) });

  /** The panel's page: a webview is an iframe (the host page) holding another iframe (the extension's page). */
  const panel = (): Promise<Frame> =>
    poll('the queue panel webview', async () => {
      for (const frame of page.frames()) {
        if (!frame.url().includes('/webview/') || !frame.parentFrame()?.url().includes('/webview/')) continue;
        if ((await frame.locator('#task-list').count()) > 0) return frame;
      }
      return undefined;
    });
  const panelText = async (): Promise<string> => (await panel()).locator('#app').innerText();

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    control = mkdtempSync(join(tmpdir(), 'switchyard-panel-control-'));
    const removeFolders = (): void => {
      workspace.remove();
      rmSync(control, { recursive: true, force: true });
    };
    registerCleanup({ name: 'panel test folders', run: async () => removeFolders(), runSync: removeFolders });
    const lanes = { command: { command: `${process.execPath} ${HOLD_AGENT} ${control}` } };
    writeFileSync(
      join(workspace.dir, '.vscode', 'settings.json'),
      `${JSON.stringify({ 'switchyard.lanes': lanes, 'switchyard.runOnSend': false }, null, 2)}\n`,
    );
    writeFileSync(join(control, 'fail'), '');
    // Two tasks from the CLI (the same state file the extension reads).
    for (const title of ['Hold until released [hold]', 'Fails until fixed [fail]']) {
      execFileSync(process.execPath, [CLI, 'task', 'add', '--title', title, '--spec', `Write a note for: ${title}`], {
        cwd: workspace.dir,
        stdio: 'pipe',
      });
    }
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1500, height: 950 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('console', (m) => {
      if (m.text().includes('switchyard panel')) console.log(`      [webview ${m.type()}] ${m.text()}`);
    });
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
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await shot(`failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`).catch(() => undefined);
  });

  it('opens from the status bar item and lists the queued tasks', async () => {
    await workbench.openActivity('Switchyard'); // activates the extension
    const item = page.locator('.statusbar-item', { hasText: 'Switchyard:' }).first();
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    await poll('the status bar counting 2 queued', async () =>
      (await item.innerText()).includes('2 queued') ? true : undefined,
    );
    await item.click();
    const text = await poll('the panel listing both tasks', async () => {
      const body = await panelText();
      return body.includes('Hold until released [hold]') && body.includes('Fails until fixed [fail]')
        ? body
        : undefined;
    });
    assert.match(text, /Ready \(priority order\) \(2\)/);
    assert.match(text, /No backpressure: 4 free RUNNING slot\(s\)/);
    assert.equal(
      await page.locator('.tab', { hasText: 'Switchyard: Queue' }).count(),
      1,
      'one panel, titled "Switchyard: Queue"',
    );
  });

  it('runs the queue from the panel: one task RUNNING in its stage, the other FAILED with its real reason', async () => {
    const frame = await panel();
    await frame.getByRole('button', { name: 'Run the queue' }).click();
    const held = await poll('the held task RUNNING in the RUNNING stage', async () => {
      const t = task('Hold until released [hold]');
      if (t?.state !== 'RUNNING') return undefined;
      const stage = await (await panel()).locator('[data-stage="RUNNING"]').innerText();
      return stage.includes(t.id) && /1 \/ 4/.test(stage) ? t : undefined;
    });
    const failed = await poll(
      'the failing task FAILED after its two attempts',
      async () => {
        const t = task('Fails until fixed [fail]');
        return t?.state === 'FAILED' ? t : undefined;
      },
      90_000,
    );
    assert.match(failed.failureReason ?? '', /simulated failure of t\d+.*\(failed 2 attempts, the lane's limit\)/);
    const frame2 = await panel();
    await poll('the FAILED row with its reason in the panel', async () =>
      (
        await frame2
          .locator(`[data-task-id="${failed.id}"]`)
          .innerText()
          .catch(() => '')
      ).includes('simulated failure')
        ? true
        : undefined,
    );
    await frame2.locator(`[data-task-id="${failed.id}"]`).click();
    const history = await poll('the run history of the failed task', async () => {
      const rows = await frame2.locator('#detail table.runs tbody').allInnerTexts();
      return rows.length === 2 ? rows : undefined;
    });
    assert.match(history[0]!, /^2\s+t\d+\.2\s+command\s+FAILED \(lane-exit\)[\s\S]*simulated failure of t\d+/);
    assert.match(
      await frame2.locator('#pipeline').innerText(),
      /No backpressure: 3 free RUNNING slot\(s\)|RUNNING\s+1 \/ 4/,
    );
    assert.match(await frame2.locator('#lanes').innerText(), /command\s*default/);
    assert.equal(stored().runs.filter((r) => r.taskId === held.id && r.state === 'RUNNING').length, 1);
    // The run's progress notification would cover the panel in the pictures.
    await workbench.runCommand('Notifications: Toggle Do Not Disturb Mode');
    await page
      .locator('.notifications-toasts .notification-toast')
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    await page.mouse.move(5, 500);
    await shot('01-running-queue.png');
    if (process.env.UPDATE_SCREENSHOT === '1') {
      await page.screenshot({ path: join(REPO_ROOT, 'media', 'panel.png') });
      console.log('      updated media/panel.png');
    }
    await workbench.runCommand('Notifications: Toggle Do Not Disturb Mode');
  });

  it('Retry in the panel starts a new attempt of the FAILED task', async () => {
    const failed = task('Fails until fixed [fail]');
    const before = stored().runs.filter((r) => r.taskId === failed.id);
    rmSync(join(control, 'fail')); // the next attempt succeeds
    const frame = await panel();
    await frame.getByRole('button', { name: `Retry ${failed.id}` }).click();
    const fresh = await poll('a new run of the retried task', async () => {
      const runs = stored().runs.filter((r) => r.taskId === failed.id);
      return runs.length > before.length ? runs.at(-1) : undefined;
    });
    assert.ok(!before.some((r) => r.id === fresh.id), `${fresh.id} is a new run`);
    const done = await poll(
      'the retried task DONE',
      async () => (task('Fails until fixed [fail]').state === 'DONE' ? task('Fails until fixed [fail]') : undefined),
      90_000,
    );
    assert.equal(done.id, failed.id);
    await poll('the panel showing the new attempt in the run history', async () => {
      const rows = await (await panel()).locator('#detail table.runs tbody').allInnerTexts();
      return rows.length === before.length + 1 && rows[0]!.includes(fresh.id) && rows[0]!.includes('SUCCEEDED')
        ? true
        : undefined;
    });
    await shot('02-after-retry.png');
  });

  it('the held task finishes when released, and the panel is restored after a window reload', async () => {
    writeFileSync(join(control, 'release'), '');
    await poll(
      'both tasks DONE',
      async () => (stored().tasks.every((t) => t.state === 'DONE') ? true : undefined),
      90_000,
    );
    await page.reload();
    await workbench.waitReady();
    const text = await poll('the restored panel listing both tasks as DONE', async () => {
      const body = await panelText().catch(() => '');
      return (body.match(/\bDONE\b/g) ?? []).length >= 2 && body.includes('Hold until released [hold]')
        ? body
        : undefined;
    });
    assert.match(text, /Switchyard queue/);
    assert.equal(
      await page.locator('.tab', { hasText: 'Switchyard: Queue' }).count(),
      1,
      'still one panel after the reload',
    );
    await shot('03-restored-after-reload.png');
    for (let reload = 2; reload <= 3; reload++) {
      await page.reload();
      await workbench.waitReady();
      await poll(`the panel restored after reload ${reload}`, async () =>
        (await panelText().catch(() => '')).includes('Hold until released [hold]') ? true : undefined,
      );
      await page.waitForTimeout(1_000); // a second restored panel would appear by now
      assert.equal(
        await page.locator('.tab', { hasText: 'Switchyard: Queue' }).count(),
        1,
        `one panel after reload ${reload}`,
      );
    }
  });
});
