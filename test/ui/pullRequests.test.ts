import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { PullRequestRecord } from '../../src/core/model/pullRequestRecord';
import { Run } from '../../src/core/model/run';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { editState } from '../helpers/editState';
import { pullRequest } from '../helpers/pullRequestFixture';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// Pull requests in a real VS Code (code-server + chromium, the packaged .vsix). The records are written through the
// project's store (as the pull-request integration writes them) from this process, another process to the window:
// the Tasks tree shows the PR and each required check, the queue panel its AWAITING_CI column, the PR on the row and
// the checks in the detail; a failing check and a merge are announced once, with Open Pull Request, which opens the
// PR's page (a local server stands in for GitHub's, on 127.0.0.2: the workbench would rewrite a 127.0.0.1 URL to
// its own port proxy, which a GitHub URL never is); Set GitHub Token refuses an empty token, stores one, and offers
// to remove it. Pictures in the light and the dark theme: test-output/ui/pull-requests/.

const OUT = join(REPO_ROOT, 'test-output', 'ui', 'pull-requests');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const TOKEN = 'ghp_UITESTfaketoken0123456789abcdefghijABCD';
const LIGHT = 'Default Light Modern';
const DARK = 'Default Dark Modern';

describe('Pull requests in VS Code: tree, panel, notifications, token (code-server + chromium)', function () {
  this.timeout(150_000);
  let workspace: TestWorkspace;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let github: Server;
  let origin: string;
  const requests: string[] = [];
  const ids = { ci: '', merged: '' };
  const n = { ci: 0, merged: 0 };

  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(OUT, name) });
  const panel = (): Promise<Frame> =>
    poll('the queue panel webview', async () => {
      for (const frame of page.frames()) {
        if (!frame.url().includes('/webview/') || !frame.parentFrame()?.url().includes('/webview/')) continue;
        if ((await frame.locator('#task-list').count()) > 0) return frame;
      }
      return undefined;
    });
  const settings = (theme: string): void =>
    writeFileSync(
      join(workspace.dir, '.vscode', 'settings.json'),
      `${JSON.stringify(
        {
          'switchyard.lanes': workspace.lanes,
          'switchyard.runOnSend': false,
          'workbench.colorTheme': theme,
        },
        null,
        2,
      )}\n`,
    );
  /**
   * Waits until the browser asked the stand-in for PR `number`'s page since request `since`. The workbench asks
   * before it opens a site that is not a trusted domain: a person presses Open.
   */
  const pageOpened = (what: string, number: number, since: number): Promise<true> =>
    poll(
      what,
      async () => {
        if (requests.slice(since).includes(`GET /acme/widgets/pull/${number}`)) return true;
        const open = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ }).first();
        if (await open.isVisible().catch(() => false)) await open.click();
        return undefined;
      },
      30_000,
    );
  const toasts = (text: string) => page.locator('.notifications-toasts .notification-toast', { hasText: text });

  /** Writes a task's run with this pull-request record (and the task's state) through the project's store. */
  const record = (taskId: string, pr: PullRequestRecord, state: 'AWAITING_CI' | 'DONE' = 'AWAITING_CI') =>
    editState(workspace.dir, (s) => {
      const task = s.tasks.find((t) => t.id === taskId)!;
      const runId = `${taskId}.1`;
      task.state = state;
      task.lastRunId = runId;
      task.updatedAt = new Date().toISOString();
      if (state === 'DONE' && pr.mergeCommit)
        task.integration = {
          branch: pr.base,
          commit: pr.mergeCommit,
          runId,
          at: new Date().toISOString(),
          pullRequest: { number: pr.number, url: pr.url },
        };
      s.runs = s.runs.filter((r) => r.id !== runId);
      s.runs.push(
        Run.parse({
          id: runId,
          taskId,
          lane: 'command',
          attempt: 1,
          generation: task.generation,
          state: 'SUCCEEDED',
          branch: pr.head,
          worktree: join(workspace.dir, '.switchyard', 'worktrees', runId),
          baseCommit: task.baseCommit,
          startedAt: new Date().toISOString(),
          durationMs: 42_000,
          pullRequest: pr,
        }),
      );
    });

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    registerCleanup({
      name: 'pull-request test folder',
      run: async () => workspace.remove(),
      runSync: workspace.remove,
    });
    github = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Pull request</title><h1>Pull request</h1>');
    });
    await new Promise<void>((resolve) => github.listen(0, '127.0.0.2', resolve));
    registerCleanup({
      name: 'pull-request page server',
      run: () => new Promise((r) => github.close(() => r())),
      runSync: () => void github.close(),
    });
    origin = `http://127.0.0.2:${(github.address() as AddressInfo).port}`;
    settings(LIGHT);
    const add = (title: string): string =>
      JSON.parse(
        execFileSync(process.execPath, [CLI, 'task', 'add', '--json', '--title', title, '--spec', title], {
          cwd: workspace.dir,
          encoding: 'utf8',
        }),
      )[0].id as string;
    ids.merged = add('Document the export');
    ids.ci = add('Export the report as CSV');
    n.merged = 40;
    n.ci = 41;
    await record(
      ids.merged,
      pullRequest(
        n.merged,
        {
          state: 'merged',
          mergeCommit: 'e'.repeat(40),
          checks: [
            { name: 'build', state: 'success', conclusion: 'success' },
            { name: 'unit tests', state: 'success', conclusion: 'success' },
          ],
        },
        origin,
      ),
      'DONE',
    );
    await record(ids.ci, pullRequest(n.ci, {}, origin));
    const vsix = packageExtension(OUT);
    server = await startCodeServer();
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1500, height: 950 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    browser.context.on('page', (p) => console.log(`      [new page] ${p.url()}`));
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

  it('the Tasks tree shows the PR (number, state) and each required check with its state', async () => {
    await workbench.openActivity('Switchyard');
    await workbench.resizeSideBar(520);
    await poll('the AWAITING_CI task', async () =>
      (await workbench.tasksUnder('AWAITING_CI')).some((t) => t.startsWith(`${ids.ci} · Export the report as CSV`))
        ? true
        : undefined,
    );
    const [row] = await workbench.tasksUnder('AWAITING_CI');
    assert.match(row!, new RegExp(`AWAITING_CI · PR #${n.ci} open$`));
    // Expanded again on every probe: a refresh of the tree while the PR's checks register may redraw the rows.
    const expand = async () => {
      await workbench.expandRow(`${ids.ci} · Export the report as CSV`);
      await workbench.expandRow(`PR #${n.ci}`);
      await workbench.expandRow(`${ids.merged} · Document the export`);
      await workbench.expandRow(`PR #${n.merged}`);
    };
    const rows = await poll('the check rows', async () => {
      await expand();
      const all = await workbench.sideBarTreeRows();
      return all.some((r) => r.text.startsWith('lint')) && all.some((r) => r.text.startsWith(`PR #${n.merged}`))
        ? all
        : undefined;
    }).catch(async (error: Error) => {
      const all = await workbench.sideBarTreeRows();
      throw new Error(
        `${error.message}; the tree:\n${all.map((r) => `${r.level} ${r.expanded} ${r.text}`).join('\n')}`,
      );
    });
    const texts = rows.map((r) => `${r.level} ${r.text}`);
    const at = texts.findIndex((t) => t.startsWith(`3 PR #${n.ci}`));
    assert.deepEqual(texts.slice(at, at + 4), [
      `3 PR #${n.ci} open · 1/3 checks passed, 1 pending, 1 not registered yet`,
      '4 build success',
      '4 unit tests pending',
      '4 lint missing (not registered yet)',
    ]);
    assert.ok(texts.includes(`3 PR #${n.merged} merged · 2/2 checks passed`), texts.join('\n'));
    const icons = await page
      .locator('.part.sidebar .monaco-list-row[aria-level="4"] .codicon')
      .evaluateAll((els) => els.map((e) => e.className));
    assert.ok(
      icons.some((c) => c.includes('codicon-pass')) && icons.some((c) => c.includes('codicon-clock')),
      icons.join(),
    );
    await page.mouse.move(900, 600);
    await shot('01-tree-light.png');
  });

  it("Open Pull Request in the task row's context menu, and from the palette, opens the PR's page", async () => {
    const before = requests.length;
    const taskRow = page
      .locator('.part.sidebar .monaco-list-row')
      .filter({ hasText: `${ids.ci} · Export` })
      .first();
    await taskRow.click({ button: 'right' });
    const item = page.locator('.context-view .action-item .action-label[aria-label="Open Pull Request"]');
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    await item.hover();
    await page.waitForTimeout(250);
    await item.click();
    await page.waitForTimeout(1000);
    await shot('02-open-pull-request.png');
    await pageOpened('the PR page requested from the context menu', n.ci, before);
    assert.ok(
      browser.context.pages().some((p) => p.url().endsWith(`/acme/widgets/pull/${n.ci}`)),
      'a browser tab shows the PR',
    );
    for (const p of browser.context.pages().slice(1)) await p.close();
    assert.equal(await page.locator('.notification-toast', { hasText: 'Error running command' }).count(), 0);

    // From the palette (shown there once a task has a PR): a pick of the tasks that have one.
    const since = requests.length;
    await workbench.runCommand('Switchyard: Open Pull Request');
    await workbench.waitForPrompt('Open the pull request of which task?');
    const picks = await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name')
      .allInnerTexts();
    assert.deepEqual(
      picks.sort(),
      [`${ids.merged} · Document the export`, `${ids.ci} · Export the report as CSV`].sort(),
    );
    await workbench.quickPickRow(`${ids.ci} · Export the report as CSV`).click();
    await pageOpened('the PR page requested from the palette', n.ci, since);
    for (const p of browser.context.pages().slice(1)) await p.close();
  });

  it('a failing required check is announced once, with its name and Open Pull Request', async () => {
    await record(
      ids.ci,
      pullRequest(
        n.ci,
        {
          checks: [
            { name: 'build', state: 'success', conclusion: 'success' },
            { name: 'unit tests', state: 'failure', conclusion: 'timed_out' },
            { name: 'lint', state: 'pending' },
          ],
        },
        origin,
      ),
    );
    const text = `required check "unit tests" failed (timed_out) on pull request #${n.ci}`;
    const toast = toasts(text);
    await toast.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(await toast.first().getByRole('button', { name: 'Open Pull Request' }).isVisible());
    await poll('the failed check row', async () =>
      (await workbench.sideBarTreeRows()).some((r) => r.text === 'unit tests failure (timed_out)') ? true : undefined,
    );
    await shot('03-check-failed-light.png');
    // Refreshes re-read the same state: no second notification.
    for (let i = 0; i < 2; i++) await workbench.runCommand('Switchyard: Refresh');
    await page.waitForTimeout(1500);
    await workbench.runCommand('Notifications: Show Notifications');
    const center = page.locator('.notifications-center .notification-list-item', { hasText: text });
    await center.first().waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await center.count(), 1, 'announced once');
    const before = requests.length;
    await center.first().getByRole('button', { name: 'Open Pull Request' }).click();
    await pageOpened('the PR page requested from the notification', n.ci, before);
    for (const p of browser.context.pages().slice(1)) await p.close();
    await workbench.runCommand('Notifications: Clear All Notifications');
  });

  it('the queue panel: an AWAITING_CI column, the PR on the row, its checks in the detail; light, dark', async () => {
    await workbench.runCommand('Switchyard: Open Queue Panel');
    const frame = await panel();
    const stage = await poll('the AWAITING_CI column with the task', async () => {
      const text = await frame
        .locator('[data-stage="AWAITING_CI"]')
        .innerText()
        .catch(() => '');
      return text.includes(ids.ci) ? text : undefined;
    });
    assert.match(stage, /AWAITING_CI\s+1/);
    assert.match(stage, /AWAITING_CI\s+1 \/ 4/, 'its WIP usage against wip.AWAITING_CI (default 4)');
    const row = frame.locator(`[data-task-id="${ids.ci}"]`);
    assert.match(await row.innerText(), new RegExp(`PR #${n.ci} open[\\s\\S]*unit tests`));
    assert.equal(await row.locator('.check-failure').count(), 1);
    await row.click();
    const detail = await poll('the PR in the task detail', async () => {
      const section = frame.locator('#detail .pull-request');
      return (await section.count()) ? section.innerText() : undefined;
    });
    assert.match(detail, new RegExp(`#${n.ci}\\s+open · acme/widgets: switchyard/t${n.ci}\\.1 → main`));
    assert.match(detail, /build: success/);
    assert.match(detail, /unit tests: failure \(timed_out\)/);
    assert.match(detail, /lint: pending/);
    assert.equal(await frame.locator('#detail a[href]').count(), 0, 'the page has no link of its own');
    await page.mouse.move(5, 500);
    await shot('04-panel-light.png');

    const before = requests.length;
    await frame
      .getByRole('button', { name: `Open pull request #${n.ci}` })
      .first()
      .click();
    await pageOpened('the PR page requested from the panel (through the host)', n.ci, before);
    for (const p of browser.context.pages().slice(1)) await p.close();

    settings(DARK);
    await page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 30_000 });
    await poll('the panel in the dark theme', async () =>
      (await (await panel()).locator('body.vscode-dark').count()) ? true : undefined,
    );
    await page.waitForTimeout(500);
    await shot('05-panel-dark.png');
    await workbench.runCommand('View: Close Editor');
    await shot('06-tree-dark.png');
  });

  it('a merge is announced once, with Open Pull Request and Pull main', async () => {
    await record(
      ids.ci,
      pullRequest(
        n.ci,
        {
          state: 'merged',
          mergeCommit: 'f'.repeat(40),
          checks: [
            { name: 'build', state: 'success', conclusion: 'success' },
            { name: 'unit tests', state: 'success', conclusion: 'success' },
          ],
        },
        origin,
      ),
      'DONE',
    );
    const toast = toasts(`is DONE: pull request #${n.ci} was merged into main (merge commit ffffffffffff)`);
    await toast.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(await toast.first().getByRole('button', { name: 'Open Pull Request' }).isVisible());
    assert.ok(await toast.first().getByRole('button', { name: 'Pull main' }).isVisible());
    assert.equal(await toasts(`pull request #${n.merged} was merged`).count(), 0, 'the earlier merge is not news');
    await page.waitForTimeout(600); // the toast's slide-in
    await shot('07-merged-dark.png');
    await workbench.runCommand('Notifications: Clear All Notifications');
  });

  it('Set GitHub Token: refuses an empty token, stores one (a password), then offers replace or remove', async () => {
    const input = page.locator('.quick-input-widget .quick-input-box input');
    // The host comes first, prefilled with the project's (github.apiUrl is unset here: github.com); the token is
    // stored for that host only.
    const acceptHost = async (): Promise<void> => {
      await workbench.waitForPrompt('GitHub token: host');
      assert.equal(await input.inputValue(), 'github.com', "the host is prefilled with the project's");
      await page.keyboard.press('Enter');
    };
    await workbench.runCommand('Switchyard: Set GitHub Token');
    await acceptHost();
    await workbench.waitForPrompt('GitHub token for github.com');
    assert.equal(await input.getAttribute('type'), 'password');
    await page.keyboard.press('Enter');
    await page
      .locator('.quick-input-widget .quick-input-message', { hasText: 'the token must not be empty' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(TOKEN);
    await shot('08-set-token-dark.png');
    await page.keyboard.press('Enter');
    await toasts('the GitHub token for github.com is stored').first().waitFor({ state: 'visible', timeout: 15_000 });
    await workbench.runCommand('Switchyard: Set GitHub Token');
    await acceptHost();
    await workbench
      .quickPickRow('Remove the stored GitHub token for github.com')
      .waitFor({ state: 'visible', timeout: 15_000 });
    assert.ok(await workbench.quickPickRow('Replace the stored GitHub token for github.com').isVisible());
    await workbench.quickPickRow('Remove the stored GitHub token for github.com').click();
    await toasts('removed the GitHub token for github.com').first().waitFor({ state: 'visible', timeout: 15_000 });
    // Removed: after the host, the command asks for a token again, no choice first.
    await workbench.runCommand('Switchyard: Set GitHub Token');
    await acceptHost();
    await workbench.waitForPrompt('GitHub token for github.com');
    assert.equal(await input.getAttribute('type'), 'password');
    await page.keyboard.press('Escape');
    const files = [join(workspace.dir, '.switchyard'), join(server.userDataDir, 'logs')]
      .filter((d) => existsSync(d))
      .flatMap((d) =>
        readdirSync(d, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name)),
      );
    if (existsSync(server.logFile)) files.push(server.logFile);
    assert.ok(files.length > 1);
    assert.deepEqual(
      files.filter((f) => readFileSync(f, 'utf8').includes(TOKEN)),
      [],
      'files (state, logs) that hold the token',
    );
  });
});
