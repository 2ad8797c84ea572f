import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildPanelView } from '../../src/core/panel/buildPanelView';
import { launchChromium, type Browser } from '../harness/browser';
import { runAllCleanups } from '../harness/cleanup';
import { REPO_ROOT } from '../harness/codeServer';
import { state as emptyState, richProject, task } from '../helpers/panelFixture';
import { until } from '../helpers/until';
import { NOW, hostPost, openPanel, richView, snapshot, takePosted } from './panelPage';
import { startStandIn, type StandIn } from './standIn';

// The webview bundle (dist/webview.js) on its own, in headless chromium, with
// a stand-in host channel: what it shows for a view, the messages its actions
// send, keyboard use, patches, bad messages, reloads, and pictures in the
// light, dark and high-contrast themes (test-output/webview/).

const OUT = join(REPO_ROOT, 'test-output', 'webview');

describe('Queue panel webview (standalone, headless chromium)', function () {
  let standIn: StandIn;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const warnings: string[] = [];

  before(async function () {
    this.timeout(120_000);
    mkdirSync(OUT, { recursive: true });
    // No stale pictures of an earlier run.
    for (const f of readdirSync(OUT)) if (f.startsWith('failure-')) rmSync(join(OUT, f));
    standIn = await startStandIn();
    browser = await launchChromium({ width: 1280, height: 900 });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      if (m.type() === 'warning') warnings.push(m.text());
    });
  });

  after(async function () {
    this.timeout(60_000);
    await standIn?.close();
    await runAllCleanups();
  });

  beforeEach(() => {
    problems.length = 0;
    warnings.length = 0;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await page
        .screenshot({
          path: join(OUT, `failure-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}.png`),
          fullPage: true,
        })
        .catch(() => undefined);
    else assert.deepEqual(problems, [], 'no script errors and no CSP violations');
  });

  it('shows every section of a snapshot: stages with WIP and backpressure, breakers, guards, lane metrics with charts, the canary', async () => {
    await openPanel(page, standIn, 'dark');
    assert.deepEqual(await takePosted(page), [{ type: 'ready' }]);
    await snapshot(page, richView().view);
    const text = (id: string): Promise<string> => page.locator(`#${id}`).innerText();
    assert.match(await text('summary'), /acme-api · 10 tasks .* default lane command/);
    const pipeline = await text('pipeline');
    assert.match(pipeline, /RUNNING\s+1 \/ 4/);
    assert.match(pipeline, /VERIFYING\s+2 \/ 2/);
    assert.match(pipeline, /Backpressure: VERIFYING is full \(2\/2\), so no new run starts/);
    assert.match(pipeline, /Last backpressure: .*no new run/);
    assert.match(pipeline, /failure streak 2× verify-failed/);
    assert.equal(await page.locator('[data-stage="VERIFYING"] [role="meter"]').getAttribute('aria-valuenow'), '2');
    const breakers = await text('breakers');
    assert.match(breakers, /anthropic\s+open\s+.*provider-rejected\s+a probe may run in 1 min 40 s \(10:06:40\)/);
    assert.match(breakers, /command\s+closed\s+.*1 recent failure\(s\): verify-failed/);
    const guards = await text('guards');
    assert.match(guards, /conflict-markers\s+block\s+conflict-marker\s+src\/users\.py:41 conflict marker <<<<<<< HEAD/);
    assert.match(
      guards,
      /merge-policy\s+block\s+merge-source\s+merge 1a2b3c4d5e6f brings in 9f8e7d6c5b4a from refs\/heads\/experiment/,
    );
    const lanes = await text('lanes');
    // Each rate with its sample; the verify rate only over runs that had an acceptance command.
    assert.match(lanes, /command\s*default\s+3\s+4\s+33\.3% \(1 of 3 tasks\)\s+0% \(0 of 1 run\)/);
    assert.match(
      lanes,
      /anthropic\s+2\s+3\s+0% \(0 of 2 tasks\)\s+no acceptance commands yet\s+1 min 40 s \(n=1\)\s+1 min 40 s \(n=1\)\s+no completed task\s+1\.50 \(3 runs \/ 2 tasks\)/,
    );
    assert.match(lanes, /Canary anthropic vs command: not-enough-data/);
    assert.equal(await page.locator('#lanes svg[role="img"]').count(), 5);
    assert.match(
      (await page.locator('#lanes svg[role="img"]').first().getAttribute('aria-label'))!,
      /^Completion rate: anthropic 0% \(0\/2\); command 33\.3% \(1\/3\)$/,
    );
    assert.equal(await page.locator('#task-list [role="option"]').count(), 10);
  });

  it('selecting a task asks for its history; every action posts the command the palette runs', async () => {
    const { view, detail } = richView();
    await openPanel(page, standIn, 'dark');
    await snapshot(page, view);
    await takePosted(page);
    await page.locator('#task-list [data-task-id="t8"]').click();
    assert.deepEqual(await takePosted(page), [{ type: 'select', taskId: 't8' }]);
    await page.locator('#detail', { hasText: 'Reading the run history' }).waitFor();
    await hostPost(page, detail('t8'));
    const runs = page.locator('#detail table.runs tbody');
    await runs.first().waitFor();
    assert.equal(await runs.count(), 2);
    assert.match(
      await runs.nth(0).innerText(),
      /^2\s+t8\.2\s+anthropic\s+FAILED \(verify-failed\)[\s\S]*52\.0 s\s+\$0\.04 \(7820\+782 tokens\)\s+—\s+Diff\s+Worktree\s+pytest exit 1 in tests\/test_user\.py::test_create\s+salvage: 2 file\(s\) on switchyard\/salvage\/t8\.2/,
    );
    assert.match(
      await page.locator('#detail').innerText(),
      /exceeded max attempts \(2\): last attempt failed with: pytest exit 1/,
    );
    assert.match(await page.locator('#detail table.guards').innerText(), /src\/users\.py:41/);

    const click = async (name: string | RegExp): Promise<unknown[]> => {
      await page.getByRole('button', { name }).first().click();
      return takePosted(page);
    };
    assert.deepEqual(await click('Retry t8'), [{ type: 'command', command: 'retryTask', taskId: 't8' }]);
    assert.deepEqual(await click('Cancel t8'), [{ type: 'command', command: 'cancelTask', taskId: 't8' }]);
    assert.deepEqual(await click(/^Change the lane of t8/), [
      { type: 'command', command: 'setTaskLane', taskId: 't8' },
    ]);
    assert.deepEqual(await click('Open the diff of t8.2'), [
      { type: 'command', command: 'showRunDiff', runId: 't8.2' },
    ]);
    assert.deepEqual(await click(/^Open the worktree of t8\.2/), [
      { type: 'command', command: 'openWorktree', runId: 't8.2' },
    ]);
    assert.equal(
      await page.getByRole('button', { name: /^Open the worktree of t8\.1/ }).count(),
      0,
      'a removed worktree has no link',
    );
    assert.deepEqual(await click('Run the queue'), [{ type: 'command', command: 'runQueue' }]);
    assert.deepEqual(await click('Refresh from disk'), [{ type: 'command', command: 'refresh' }]);
    // A stage chip selects its task; a READY task offers Run.
    await page.locator('#pipeline [data-select="t2"]').click();
    assert.deepEqual(await takePosted(page), [{ type: 'select', taskId: 't2' }]);
    await page.locator('#task-list [data-task-id="t5"]').click();
    await takePosted(page);
    assert.deepEqual(await click('Run t5'), [{ type: 'command', command: 'runTask', taskId: 't5' }]);
    assert.equal(await page.getByRole('button', { name: 'Retry t5' }).count(), 0);
  });

  it('works from the keyboard: tabs with arrow keys, the list with arrows, End and Enter, with aria state', async () => {
    await openPanel(page, standIn, 'light');
    await snapshot(page, richView().view);
    await takePosted(page);
    await page.locator('#tab-all').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#tab-ready').getAttribute('aria-selected'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-ready');
    const ids = await page
      .locator('#task-list [role="option"]')
      .evaluateAll((rows) =>
        rows
          .sort((a, b) => Number((a as HTMLElement).dataset.index) - Number((b as HTMLElement).dataset.index))
          .map((r) => (r as HTMLElement).dataset.taskId),
      );
    assert.deepEqual(ids, ['t6', 't5', 't7'], 'the ready list in the scheduler order; t7 waits on t2');
    assert.match(await page.locator('#task-list [data-task-id="t7"]').innerText(), /waits on t2 \(not DONE\)/);
    assert.match(
      await page.locator('#task-list [data-task-id="t6"]').innerText(),
      /#1 t6[\s\S]*score 73\.3 · priority 70 · waited 3 min 20 s/,
    );
    await page.locator('#task-list').focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.locator('#task-list').getAttribute('aria-activedescendant'), 'task-row-t5');
    await page.keyboard.press('Enter');
    assert.deepEqual(await takePosted(page), [{ type: 'select', taskId: 't5' }]);
    assert.equal(await page.locator('#task-row-t5').getAttribute('aria-selected'), 'true');
    await page.getByRole('button', { name: 'Run t5' }).waitFor();
    await page.keyboard.press('Tab'); // on to the detail's first action
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Run t5');
    await page.keyboard.press('Enter');
    assert.deepEqual(await takePosted(page), [{ type: 'command', command: 'runTask', taskId: 't5' }]);
  });

  it('applies patches in place: only the rows and sections a patch touches are redrawn', async () => {
    const { view } = richView();
    await openPanel(page, standIn, 'dark');
    await snapshot(page, view);
    await page.evaluate(() => {
      for (const el of document.querySelectorAll<HTMLElement>(
        '#task-list [data-task-id], #breakers-body table, #lanes-body table',
      ))
        (el as unknown as { __mark: boolean }).__mark = true;
    });
    const t5 = {
      ...view.tasks.find((t) => t.id === 't5')!,
      state: 'RUNNING' as const,
      key: undefined,
      run: { id: 't5.1', state: 'RUNNING' as const, attempt: 1, startedAt: new Date(NOW - 65_000).toISOString() },
    };
    delete t5.key;
    const pipeline = {
      ...view.pipeline,
      stages: view.pipeline.stages.map((s) => (s.stage === 'RUNNING' ? { ...s, count: 2, tasks: ['t2', 't5'] } : s)),
    };
    await hostPost(page, { type: 'patch', seq: 2, base: 1, upsert: [t5], remove: ['t10'], sections: { pipeline } });
    await page.waitForFunction(() => document.body.dataset.seq === '2');
    assert.match(
      await page.locator('#task-list [data-task-id="t5"]').innerText(),
      /RUNNING[\s\S]*t5\.1 · attempt 1 · 1 min 5 s/,
    );
    assert.equal(await page.locator('#task-list [data-task-id="t10"]').count(), 0);
    assert.match(await page.locator('#pipeline').innerText(), /RUNNING\s+2 \/ 4/);
    const kept = await page.evaluate(() => ({
      rows: [...document.querySelectorAll<HTMLElement>('#task-list [data-task-id]')].filter(
        (el) => (el as unknown as { __mark?: boolean }).__mark,
      ).length,
      breakers: !!(document.querySelector('#breakers-body table') as unknown as { __mark?: boolean }).__mark,
      lanes: !!(document.querySelector('#lanes-body table') as unknown as { __mark?: boolean }).__mark,
    }));
    assert.deepEqual(
      kept,
      { rows: 9, breakers: true, lanes: true },
      'the other rows and the untouched sections are the same elements',
    );
    assert.match(await page.locator('#tab-active').innerText(), /In progress \(4\)/);
  });

  it('drops malformed messages (logged) and asks for a snapshot when a patch does not fit', async () => {
    await openPanel(page, standIn, 'dark');
    await snapshot(page, richView().view);
    await takePosted(page);
    await hostPost(page, { type: 'snapshot', seq: 'two', view: {} });
    await hostPost(page, {
      type: 'patch',
      seq: 3,
      base: 2,
      upsert: [{ id: 't1', state: 'EXPLODED' }],
      remove: [],
      sections: {},
    });
    const dropped = () => warnings.filter((w) => w.includes('dropped a malformed message')).length;
    await until('the two warnings', () => dropped() >= 2, 5_000);
    assert.equal(dropped(), 2, warnings.join('\n'));
    assert.match(warnings.join('\n'), /upsert\.0\.n: |upsert\.0\.state: /);
    assert.equal(await page.locator('#task-list [role="option"]').count(), 10, 'what was shown stays');
    assert.deepEqual(await takePosted(page), []);
    await hostPost(page, { type: 'patch', seq: 9, base: 8, upsert: [], remove: [], sections: {} });
    assert.deepEqual(await takePosted(page), [{ type: 'ready' }], 'a patch for another base: start over');
    await hostPost(page, { type: 'error', message: 'not a git repository: /tmp/x' });
    assert.equal(await page.locator('#banner').innerText(), 'not a git repository: /tmp/x');
  });

  it('restores its tab, filter and selection after a reload (getState/setState)', async () => {
    await openPanel(page, standIn, 'dark');
    await snapshot(page, richView().view);
    await page.locator('#tab-ready').click();
    await page.locator('#filter').fill('lint');
    await page.locator('#task-list [data-task-id="t6"]').click();
    // The UI state is saved within 200 ms (the stand-in keeps it in sessionStorage).
    await page.waitForFunction(() => {
      const saved = JSON.parse(sessionStorage.getItem('sy-state') ?? '{}') as Record<string, unknown>;
      return saved.tab === 'ready' && saved.filter === 'lint' && saved.selected === 't6';
    });
    await takePosted(page);
    await page.goto(standIn.url('dark')); // the panel reloads, as after a window reload
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.length > 0);
    assert.deepEqual(await takePosted(page), [{ type: 'ready', selected: 't6' }]);
    await snapshot(page, richView().view);
    assert.equal(await page.locator('#tab-ready').getAttribute('aria-selected'), 'true');
    assert.equal(await page.locator('#filter').inputValue(), 'lint');
    assert.deepEqual(
      await page
        .locator('#task-list [role="option"]')
        .evaluateAll((r) => r.map((x) => (x as HTMLElement).dataset.taskId)),
      ['t6'],
    );
    assert.equal(await page.locator('#task-row-t6').getAttribute('aria-selected'), 'true');
  });

  it('says when it shows only the newest finished tasks; its Show more asks the host for the next page', async () => {
    await openPanel(page, standIn, 'dark');
    await takePosted(page);
    const { state: s, guards, trace } = richProject();
    const paged = (shown: number, more: boolean) =>
      buildPanelView(s, '/work/acme-api', { guards, trace, finished: { shown, more } }, NOW);
    await snapshot(page, paged(50, true));
    assert.match(await page.locator('#summary').innerText(), /the 50 newest finished shown/);
    assert.equal(await page.locator('#list-more').isVisible(), true);
    assert.match(await page.locator('#list-more').innerText(), /The 50 newest finished tasks are shown/);
    assert.match(
      await page.locator('#lanes-over').innerText(),
      /over the runs of the active tasks and of the 50 newest finished tasks \(older finished tasks are not counted/,
    );
    await page.getByRole('button', { name: 'Show the next page of finished tasks' }).click();
    assert.deepEqual(await takePosted(page), [{ type: 'more' }]);

    // The last page: the control goes, the figures say they cover every run.
    const last = paged(100, false);
    await hostPost(page, {
      type: 'patch',
      seq: 2,
      base: 1,
      upsert: [],
      remove: [],
      sections: { header: last.header, lanes: last.lanes },
    });
    await page.waitForFunction(() => document.body.dataset.seq === '2');
    assert.equal(await page.locator('#list-more').isVisible(), false);
    assert.doesNotMatch(await page.locator('#summary').innerText(), /newest finished/);
    assert.match(await page.locator('#lanes-over').innerText(), /Figures over all recorded runs/);
  });

  it('says plainly what has no data yet', async () => {
    await openPanel(page, standIn, 'dark');
    await snapshot(page, buildPanelView(emptyState(), '/work/empty', { guards: [] }, NOW));
    const body = await page.locator('#app').innerText();
    for (const expected of [
      'No tasks yet. Create one with "Switchyard: New Task"',
      'No scheduler trace yet',
      'No circuit breaker recorded yet',
      'No guard verdicts recorded yet',
      'No runs recorded yet, so there are no lane metrics',
      'No canary is running',
      'Select a task',
      'No backpressure: 4 free RUNNING slot(s)',
    ])
      assert.ok(body.includes(expected), `shows "${expected}"`);
    assert.doesNotMatch(body, /NaN|undefined|\$0\.00/);
    await page.screenshot({ path: join(OUT, 'panel-empty-dark.png'), fullPage: true });
  });

  it('says no new run can start when every READY task\'s lane is paused by its breaker (not "No backpressure")', async () => {
    await openPanel(page, standIn, 'light');
    const paused = emptyState({
      tasks: [task({ id: 't1', state: 'READY' }), task({ id: 't2', state: 'READY' })],
      breakers: {
        command: {
          state: 'open',
          since: new Date(NOW - 10_000).toISOString(),
          code: 'key-missing',
          recent: [],
          successes: 0,
          opened: 1,
        },
        // Closed again by its probe runs: it says so, not "no recent failures".
        anthropic: {
          state: 'closed',
          since: new Date(NOW - 60_000).toISOString(),
          code: 'provider-rejected',
          recent: [],
          successes: 0,
          opened: 2,
        },
      },
    });
    await snapshot(page, buildPanelView(paused, '/work/paused', { guards: [] }, NOW));
    const pipeline = await page.locator('#pipeline').innerText();
    assert.match(pipeline, /No new run can start: every READY task's lane is paused by its circuit breaker/);
    assert.match(
      pipeline,
      /Lane command is paused by its circuit breaker: 2 READY tasks wait for it \(breaker open since/,
    );
    assert.doesNotMatch(pipeline, /No backpressure/);
    const breakers = await page.locator('#breakers').innerText();
    assert.match(
      breakers,
      /anthropic\s+closed\s+.*closed 1 min 0 s ago after its probe runs succeeded; it last opened for provider-rejected/,
    );
    await page.screenshot({ path: join(OUT, 'panel-paused-lane-light.png'), fullPage: true });
  });

  it("shows the latest run's transcript with its tool calls collapsed, and room for the decision markers", async () => {
    const { view, detail } = richView();
    await openPanel(page, standIn, 'dark');
    await snapshot(page, view);
    await page.locator('#task-list [data-task-id="t8"]').click();
    await hostPost(page, detail('t8'));
    const transcript = page.locator('#detail ol.transcript');
    await transcript.waitFor();
    assert.match(
      (await page.locator('#detail h4', { hasText: /Transcript of/i }).textContent()) ?? '',
      /Transcript of t8\.2/,
    );
    assert.match(await transcript.innerText(), /The test fails on a missing email check/);
    const tool = transcript.locator('details', { hasText: 'edit_file' });
    assert.equal(await tool.getAttribute('open'), null, 'a tool call starts collapsed');
    assert.equal(await tool.locator('pre').first().isVisible(), false);
    await tool.locator('summary').click();
    assert.match(await tool.locator('pre').nth(1).innerText(), /edited src\/users\.py/);
    assert.match(await transcript.innerText(), /usage: 7820 input, 782 output tokens, \$0\.0400/);
    const decisions = page.locator('#detail ol.decisions');
    const box = await decisions.evaluate((el) => {
      const style = getComputedStyle(el);
      return {
        overflowY: style.overflowY,
        padding: Number.parseFloat(style.paddingLeft),
        scroll: el.scrollHeight - el.clientHeight,
      };
    });
    assert.equal(box.overflowY, 'visible', 'the decisions list does not scroll inside the page');
    assert.ok(box.padding >= 40, `room for "100." markers (padding ${box.padding}px)`);
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    it(`renders in the ${theme} theme (screenshot test-output/webview/panel-${theme}.png)`, async () => {
      const { view, detail } = richView();
      await openPanel(page, standIn, theme);
      await snapshot(page, view);
      await page.locator('#task-list [data-task-id="t8"]').click();
      await hostPost(page, detail('t8'));
      await page.locator('#detail table.runs').waitFor();
      await page.evaluate(() => document.fonts.ready);
      // Codicons load under the CSP (font-src) and render as glyphs.
      assert.equal(await page.evaluate(() => document.fonts.check('16px codicon')), true);
      const colours = await page.evaluate(() => [
        getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.body).color,
      ]);
      const expected = {
        dark: ['rgb(31, 31, 31)', 'rgb(204, 204, 204)'],
        light: ['rgb(255, 255, 255)', 'rgb(59, 59, 59)'],
        'high-contrast': ['rgb(0, 0, 0)', 'rgb(255, 255, 255)'],
      };
      assert.deepEqual(colours, expected[theme], 'the body takes the theme variables');
      // Every state word in the task list reads at 4.5:1 or more against the page (WCAG AA for text).
      const states = await page
        .locator('#task-list .cell.state')
        .evaluateAll((cells) => cells.map((c) => [c.textContent?.trim() ?? '', getComputedStyle(c).color]));
      assert.ok(states.length >= 5, `the list shows its states: ${JSON.stringify(states)}`);
      for (const [name, colour] of states) {
        const ratio = contrast(colour!, colours[0]!);
        assert.ok(ratio >= 4.5, `${name} in the ${theme} theme: contrast ${ratio.toFixed(2)}:1 (${colour})`);
      }
      // And every other piece of text the panel shows (verdicts, breakers, checks, reasons, notes), on the background
      // it is drawn on.
      const texts = await page.evaluate(() => {
        // No named helpers in here: the test runner's transform would wrap them in a function the page lacks.
        const out: { text: string; colour: string; background: string }[] = [];
        for (const el of document.body.querySelectorAll('*')) {
          const own = [...el.childNodes]
            .filter((n) => n.nodeType === Node.TEXT_NODE)
            .map((n) => n.textContent?.trim() ?? '')
            .join(' ')
            .trim();
          const box = (el as HTMLElement).getBoundingClientRect?.();
          if (!own || !box || box.width === 0 || box.height === 0) continue;
          if (getComputedStyle(el).visibility === 'hidden' || el.closest('svg')) continue;
          let background = getComputedStyle(document.body).backgroundColor;
          for (let at: Element | null = el; at; at = at.parentElement) {
            const bg = getComputedStyle(at).backgroundColor;
            if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) {
              background = bg;
              break;
            }
          }
          out.push({ text: own.slice(0, 40), colour: getComputedStyle(el).color, background });
        }
        return out;
      });
      assert.ok(texts.length > 50, `the panel shows its text: ${texts.length} pieces`);
      const low = texts
        .map((t) => ({ ...t, ratio: contrast(t.colour, t.background) }))
        .filter((t) => t.ratio < 4.5)
        .map((t) => `"${t.text}" ${t.ratio.toFixed(2)}:1 (${t.colour} on ${t.background})`);
      assert.deepEqual(low, [], `text under 4.5:1 in the ${theme} theme`);
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(OUT, `panel-${theme}.png`), fullPage: true });
    });
  }
});

/** The WCAG contrast ratio of two `rgb(…)`/`rgba(…)` colours (an alpha is blended onto the background). */
function contrast(fg: string, bg: string): number {
  const parse = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
  const [br = 0, bgG = 0, bb = 0] = parse(bg);
  const [r = 0, g = 0, b = 0, a = 1] = parse(fg);
  const blend = [r * a + br * (1 - a), g * a + bgG * (1 - a), b * a + bb * (1 - a)];
  const lum = (rgb: number[]): number => {
    const [lr = 0, lg = 0, lb = 0] = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  };
  const [l1, l2] = [lum(blend), lum([br, bgG, bb])].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}
