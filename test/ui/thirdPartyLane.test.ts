import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// A lane from another extension: examples/sample-lane, packaged and installed
// beside Switchyard, registers "Sample Echo" through getAPI(1) only. It has no
// activation events: it declares the lane in its package.json
// (contributes["switchyard.lanes"]) and Switchyard activates it before it lists
// the lanes. The lane shows in Send to Lane…, runs a task to DONE, and once the
// sample is uninstalled the lane is gone and a task routed to it fails with a
// clear reason.

const OUT = join(REPO_ROOT, 'test-output', 'ui-third-party');
const SAMPLE = join(REPO_ROOT, 'examples', 'sample-lane');

interface StoredTask {
  id: string;
  state: string;
  failureReason?: string;
  spec: { title: string; lane?: string };
}

describe('A third-party lane extension (code-server + chromium)', function () {
  this.timeout(120_000);
  let workspace: TestWorkspace;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  const tasks = (): StoredTask[] =>
    (JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8')) as { tasks: StoredTask[] })
      .tasks;
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(OUT, name) });

  const sendHelloTo = async (laneLabel: string, instruction: string): Promise<void> => {
    await workbench.explorerContextMenu('src/hello.txt', 'Send to Lane…');
    await workbench.waitForPrompt('to which lane?');
    await page.locator('.quick-input-widget .quick-input-box input').fill(laneLabel);
    await workbench.quickPickRow(laneLabel).click();
    await workbench.answer(`Send src/hello.txt to ${laneLabel}`, instruction);
  };

  before(async function () {
    this.timeout(300_000);
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    registerCleanup({ name: 'test workspace', run: async () => workspace.remove(), runSync: () => workspace.remove() });
    const switchyardVsix = packageExtension(OUT);
    const sampleVsix = packageExtension(OUT, SAMPLE, 'sample-lane');
    server = await startCodeServer();
    await server.installExtension(switchyardVsix);
    await server.installExtension(sampleVsix);
    browser = await launchChromium();
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
      await shot(`failure-${this.currentTest.title.replace(/[^\w]+/g, '-').slice(0, 50)}.png`).catch(() => undefined);
  });

  it('activates the sample through its switchyard.lanes contribution; its lane runs a task to DONE', async function () {
    // Nothing else activates it: no activation events (VS Code never starts it on its own), only the contribution.
    const manifest = JSON.parse(readFileSync(join(SAMPLE, 'package.json'), 'utf8')) as {
      activationEvents?: unknown[];
      contributes?: Record<string, unknown>;
    };
    assert.deepEqual(manifest.activationEvents ?? [], []);
    assert.deepEqual(manifest.contributes?.['switchyard.lanes'], [{ id: 'sample-echo' }]);
    await workbench.openActivity('Switchyard');
    await page.locator('.part.sidebar', { hasText: 'No tasks yet.' }).waitFor({ state: 'visible', timeout: 60_000 });
    await workbench.explorerContextMenu('src/hello.txt', 'Send to Lane…');
    await workbench.waitForPrompt('to which lane?');
    await page.locator('.quick-input-widget .quick-input-box input').fill('Sample');
    const sampleRow = workbench.quickPickRow('Sample Echo');
    await sampleRow.waitFor({ state: 'visible', timeout: 30_000 });
    await shot('01-picker-with-sample-lane.png');
    await sampleRow.click();
    await workbench.answer('Send src/hello.txt to Sample Echo', 'Echo from another extension');
    const done = await poll('the task on the sample lane DONE', async () =>
      tasks().find((t) => t.spec.title === 'Echo from another extension' && t.state === 'DONE'),
    );
    assert.equal(done.spec.lane, 'sample-echo');
    const diff = readFileSync(join(workspace.dir, '.switchyard', 'runs', `${done.id}.1`, 'diff.patch'), 'utf8');
    assert.match(diff, /\+Echo from another extension\n\+\(from the sample lane\)/);
  });

  it('after the sample is uninstalled the lane is gone and a task routed to it fails with "not registered"', async function () {
    this.timeout(180_000);
    // Queue one more task for the sample lane without running it.
    writeFileSync(
      join(workspace.dir, '.vscode', 'settings.json'),
      `${JSON.stringify({ 'switchyard.lanes': workspace.lanes, 'switchyard.runOnSend': false }, null, 2)}\n`,
    );
    await page.waitForTimeout(1_500); // the settings file watcher
    await sendHelloTo('Sample Echo', 'Queued for the sample lane');
    const queued = await poll('the queued task', async () =>
      tasks().find((t) => t.spec.title === 'Queued for the sample lane'),
    );
    assert.equal(queued.state, 'READY');

    await server.uninstallExtension('switchyard.sample-lane');
    await page.reload();
    await workbench.waitReady();
    await workbench.openActivity('Switchyard');
    await workbench.explorerContextMenu('src/hello.txt', 'Send to Lane…');
    await workbench.waitForPrompt('to which lane?');
    await workbench.quickPickRow('Command').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.quick-input-widget .quick-input-box input').fill('Sample');
    await page
      .locator('.quick-input-widget .quick-input-message, .quick-input-widget .quick-input-list')
      .first()
      .waitFor({ state: 'attached' });
    await page.waitForTimeout(500);
    assert.equal(await workbench.quickPickRow('Sample Echo').count(), 0, 'the sample lane is no longer offered');
    await shot('02-picker-without-sample-lane.png');
    await page.keyboard.press('Escape');

    await workbench.runCommand('Switchyard: Run Queue');
    const failed = await poll('the queued task FAILED', async () =>
      tasks().find((t) => t.id === queued.id && t.state === 'FAILED'),
    );
    assert.match(failed.failureReason ?? '', /lane "sample-echo" is not registered; registered lanes: .*command/);
  });
});
