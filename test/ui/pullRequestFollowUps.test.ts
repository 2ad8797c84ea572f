import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { checkRun } from '../fixtures/fakeGitHub';
import { startGitHubDouble, type GitHubDouble } from '../fixtures/gitHubDouble';
import { launchChromium, type Browser } from '../harness/browser';
import { registerCleanup, runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT, startCodeServer, type CodeServer } from '../harness/codeServer';
import { createTestWorkspace, type TestWorkspace } from '../harness/workspace';
import { packageExtension } from './vsix';
import { Workbench, poll } from './workbench';

// Pull-request mode run from VS Code, end to end: the window runs the queue, the command lane's stand-in agent
// writes the task's file, Switchyard pushes the branch to a real bare repository and opens the pull request on a
// GitHub double over HTTP on 127.0.0.1 (test/fixtures/gitHubDouble.ts: GitHub's REST shapes), which reports the
// required check `build` as passing for one head and failing for the other, and merges for real in the bare
// repository. What the user sees:
// - the merged task: one notification, "… is DONE: pull request #N was merged into main", offering Open Pull Request
//   and Pull main (no local Merge, no Open Changes: the change is on the remote base); Pull main runs VS Code's Git:
//   Pull, and the folder's main has the merge;
// - the failed task: its failure notification offers Pull Request…; Close closes the PR on GitHub (confirmed).
// The token comes from the environment for the double's host (GH_HOST + GH_ENTERPRISE_TOKEN, GitHub CLI's variables).
// Pictures: test-output/ui/pull-request-follow-ups/.

const OUT = join(REPO_ROOT, 'test-output', 'ui', 'pull-request-follow-ups');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const TOKEN = ['ghp', 'UiFollowUpTestToken000000000000000a1'].join('_');

describe('Pull-request mode follow-ups in VS Code: one merge notification, Pull, Close Pull Request', function () {
  this.timeout(180_000);
  let workspace: TestWorkspace;
  let bare: string;
  let gh: GitHubDouble;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;

  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: workspace.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const cli = (...args: string[]): string =>
    execFileSync(process.execPath, [CLI, ...args], { cwd: workspace.dir, encoding: 'utf8', stdio: 'pipe' });
  const tasks = (): { id: string; state: string; spec: { title: string } }[] =>
    JSON.parse(readFileSync(join(workspace.dir, '.switchyard', 'state.json'), 'utf8')).tasks;
  const stateOf = (title: string): string | undefined => tasks().find((t) => t.spec.title === title)?.state;
  const toasts = (text: string | RegExp): Locator =>
    page.locator('.notifications-toasts .notification-toast', { hasText: text });
  const buttons = (toast: Locator): Promise<string[]> =>
    toast.locator('.monaco-button').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(OUT, name) });

  before(async function () {
    this.timeout(300_000);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    workspace = createTestWorkspace();
    const remotes = mkdtempSync(join(tmpdir(), 'switchyard-remote-'));
    registerCleanup({
      name: 'pull-request follow-up folders',
      run: async () => {
        workspace.remove();
        rmSync(remotes, { recursive: true, force: true });
      },
      runSync: () => {
        workspace.remove();
        rmSync(remotes, { recursive: true, force: true });
      },
    });
    bare = join(remotes, 'o', 'r.git');
    execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', bare]);
    git('remote', 'add', 'origin', bare);
    git('push', '--quiet', '-u', 'origin', 'main');
    // `build` fails on a head that carries fail.txt (the second task's file), passes on any other.
    const fails = (sha: string): boolean =>
      spawnSync('git', ['cat-file', '-e', `${sha}:fail.txt`], { cwd: bare }).status === 0;
    gh = await startGitHubDouble({
      bare,
      tokens: new Set([TOKEN]),
      protection: { contexts: ['build'] },
      checks: ({ sha }) => [checkRun(1, 'build', 'completed', fails(sha) ? 'failure' : 'success')],
    });
    registerCleanup({ name: 'GitHub double', run: () => gh.close(), runSync: () => undefined });
    for (const [key, value] of [
      ['integration.mode', 'pull-request'],
      ['integration.base', 'main'],
      ['integration.ciPollSeconds', '0.2'],
      ['github.apiUrl', gh.url],
      ['github.repository', 'o/r'],
      ['retryCaps.command', '1'],
    ])
      cli('config', 'set', key, value, '--local');
    cli('task', 'add', '--title', 'Document the export', '--spec', 'Say how to export', '--file', 'docs/export.md');
    cli('task', 'add', '--title', 'Break the build', '--spec', 'This breaks the build', '--file', 'fail.txt');
    const vsix = packageExtension(OUT);
    // The code-server's environment is this process's: the token for the double's host, as GitHub CLI reads it.
    const saved = { GH_HOST: process.env.GH_HOST, GH_ENTERPRISE_TOKEN: process.env.GH_ENTERPRISE_TOKEN };
    process.env.GH_HOST = new URL(gh.url).host;
    process.env.GH_ENTERPRISE_TOKEN = TOKEN;
    try {
      server = await startCodeServer();
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
    await server.installExtension(vsix);
    browser = await launchChromium({ width: 1500, height: 950 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    workbench = new Workbench(page);
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace.dir)}`);
    await workbench.waitReady();
    await workbench.openActivity('Switchyard');
  });

  after(async function () {
    this.timeout(60_000);
    await runAllCleanups();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await shot(`failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`).catch(() => undefined);
  });

  it('a merged task: one notification with Open Pull Request and Pull main; Pull main brings the merge here', async () => {
    await workbench.runCommand('Switchyard: Run Queue');
    await poll(
      'both tasks finished',
      async () =>
        stateOf('Document the export') === 'DONE' && stateOf('Break the build') === 'FAILED' ? true : undefined,
      120_000,
    );
    const merged = gh.pulls.find((p) => p.merged);
    assert.ok(merged, `a pull request was merged: ${JSON.stringify(gh.pulls)}`);
    const toast = toasts(`is DONE: pull request #${merged.number} was merged into main`);
    await toast.first().waitFor({ state: 'visible', timeout: 30_000 });
    await shot('01-merged.png');
    assert.equal(await toast.count(), 1, 'the merge is announced once');
    assert.deepEqual(await buttons(toast.first()), ['Open Pull Request', 'Pull main']);
    assert.equal(await toasts(/Open Changes|Merge into/).count(), 0, 'no local merge is offered for a landed change');
    assert.equal(await toasts('Document the export is DONE (run').count(), 0, 'no second DONE notification');
    const remoteMain = execFileSync('git', ['rev-parse', 'main'], { cwd: bare, encoding: 'utf8' }).trim();
    assert.notEqual(git('rev-parse', 'HEAD'), remoteMain, 'the folder does not have the merge yet');
    await toast.first().locator('.monaco-button', { hasText: 'Pull main' }).click();
    await poll(
      'the folder pulled main',
      async () => (git('rev-parse', 'HEAD') === remoteMain ? true : undefined),
      30_000,
    );
    assert.match(git('show', 'HEAD:docs/export.md'), /Say how to export/);
  });

  it("a failed task's notification offers Pull Request…; Close closes it on GitHub after asking", async () => {
    const failed = gh.pulls.find((p) => !p.merged);
    assert.ok(failed && failed.state === 'open', `the failed task's PR is open: ${JSON.stringify(gh.pulls)}`);
    const toast = toasts('Break the build failed').first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(await buttons(toast), ['Show Log', 'Retry', 'Pull Request…']);
    await toast.locator('.monaco-button', { hasText: 'Pull Request…' }).click();
    await workbench.waitForPrompt(`Pull request #${failed.number}`);
    await shot('02-pull-request-pick.png');
    await page.keyboard.type('Close pull request');
    await page.keyboard.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await dialog.innerText(), new RegExp(`Close pull request #${failed.number} of .* on GitHub\\?`));
    await shot('03-close-confirm.png');
    await dialog.locator('.monaco-button', { hasText: /^Close Pull Request$/ }).click();
    await poll('the PR closed on GitHub', async () => (failed.state === 'closed' ? true : undefined), 30_000);
    assert.equal(failed.merged, false);
    await toasts(`pull request #${failed.number} of`).filter({ hasText: 'closed on GitHub' }).first().waitFor({
      state: 'visible',
      timeout: 15_000,
    });
    // The failure notification comes back without Pull Request…: nothing is open any more.
    await poll('the failure notification again, without Pull Request…', async () => {
      const again = toasts('Break the build failed').first();
      if (!(await again.isVisible().catch(() => false))) return undefined;
      const offered = await buttons(again);
      return offered.includes('Retry') && !offered.includes('Pull Request…') ? true : undefined;
    });
  });
});
