import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { untilValue } from '../helpers/until';

/**
 * A person's moves in the VS Code workbench (code-server, VS Code 1.100),
 * by the selectors the workbench renders. Each step waits for what a person
 * would wait for before the next move.
 */
export class Workbench {
  constructor(readonly page: Page) {}

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  private quickInputBox(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  async waitReady(timeoutMs = 60_000): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
    await this.page.locator('.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /**
   * Shows an activity-bar view by the start of its label (e.g. "Switchyard", "Explorer"); clicking an open one would
   * close the side bar, so it is left alone.
   */
  async openActivity(label: string): Promise<void> {
    const item = this.page
      .locator(
        `.activitybar .action-item a[aria-label^="${label}"], .activitybar .action-label[aria-label^="${label}"]`,
      )
      .first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    const title = this.page.locator('.part.sidebar .composite.title');
    const showing = async (): Promise<boolean> =>
      (await this.page.locator('.part.sidebar').isVisible()) &&
      (await title.innerText().catch(() => '')).toLowerCase().startsWith(label.toLowerCase());
    // Right after a window reload VS Code may restore the same view while the click is on its way: the click then
    // closes it again. So the click is repeated while the view does not show (each one a person's click on the icon).
    for (let attempt = 0; attempt < 4; attempt++) {
      if (await showing()) return;
      // A badge on the activity (its count) lies over the icon's corner; a click there opens the view for a person too.
      await item.click({ force: true });
      for (let i = 0; i < 40 && !(await showing()); i++) await this.page.waitForTimeout(100);
    }
    if (!(await showing())) throw new Error(`the ${label} view did not show after 4 clicks on its activity icon`);
  }

  /** F1, `>title`, then clicks the palette row whose label is exactly `title`. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.quickInputBox().waitFor({ state: 'visible' });
    await this.quickInputBox().fill(`>${title}`);
    await this.quickPickRow(title).click();
  }

  /** A visible quick-pick row whose label is exactly `label`. */
  quickPickRow(label: string): Locator {
    return this.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
      .first();
  }

  /**
   * Waits for an input box or quick pick whose title (or, without a title, placeholder) contains `expect`, types,
   * presses Enter.
   */
  async answer(expect: string, text: string): Promise<void> {
    await this.waitForPrompt(expect);
    await this.quickInputBox().fill(text);
    await this.page.keyboard.press('Enter');
  }

  async waitForPrompt(expect: string, timeoutMs = 30_000): Promise<void> {
    const widget = this.quickInput();
    await widget.waitFor({ state: 'visible', timeout: timeoutMs });
    const title = widget.locator('.quick-input-title', { hasText: expect });
    const placeholder = widget
      .locator('.quick-input-box input')
      .and(this.page.locator(`[placeholder*=${JSON.stringify(expect)}]`));
    await title.or(placeholder).first().waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** In the Explorer: expands folders along `path` and right-clicks the file, then picks `menuItem`. */
  async explorerContextMenu(path: string, menuItem: string): Promise<void> {
    await this.openActivity('Explorer');
    const parts = path.split('/');
    for (const [index, name] of parts.entries()) {
      const row = this.page.locator(
        `.explorer-folders-view .monaco-list-row[aria-level="${index + 1}"][aria-label="${name}"]`,
      );
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      if (index < parts.length - 1) {
        if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
        continue;
      }
      await row.click({ button: 'right' });
    }
    await this.clickMenuItem(menuItem);
  }

  /** Right-clicks the side-bar tree row whose text starts with `prefix`, then picks `menuItem`. */
  async treeContextMenu(prefix: string, menuItem: string): Promise<void> {
    const row = this.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: prefix }).first();
    const item = this.page.locator(`.context-view .action-item .action-label[aria-label="${menuItem}"]`);
    // A refresh of the tree can replace the row under the right-click, and no menu opens: right-click it again.
    await poll(`the context menu of "${prefix}" with ${menuItem}`, async () => {
      await row.waitFor({ state: 'visible' });
      await row.click({ button: 'right' });
      if (
        await item.waitFor({ state: 'visible', timeout: 2_000 }).then(
          () => true,
          () => false,
        )
      )
        return true;
      await this.page.keyboard.press('Escape');
      return undefined;
    });
    await this.clickMenuItem(menuItem);
  }

  /**
   * Presses a two-key chord as a person does: the first key, then — once the status bar says VS Code waits for the
   * second key — the second. (Pressed back to back, the second key can land before the workbench entered the chord.)
   */
  async chord(first: string, second: string): Promise<void> {
    const waiting = this.page.locator('.part.statusbar', { hasText: 'Waiting for second key' });
    await poll(`the chord ${first} entered`, async () => {
      await this.page.keyboard.press(first);
      if (
        await waiting.waitFor({ state: 'visible', timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      )
        return true;
      return undefined;
    });
    await this.page.keyboard.press(second);
  }

  /** Picks an item of the open context menu. */
  async clickMenuItem(menuItem: string): Promise<void> {
    const item = this.page.locator(`.context-view .action-item .action-label[aria-label="${menuItem}"]`);
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    // The workbench's menu ignores a click that lands right after it opened; a person hovers first.
    await item.hover();
    await this.page.waitForTimeout(250);
    await item.click();
    if (await item.isVisible()) await this.page.keyboard.press('Enter');
    await item.waitFor({ state: 'hidden', timeout: 5_000 });
  }

  /** The rows of the tree in the side bar, as a person reads them: indent level and text. */
  async sideBarTreeRows(): Promise<{ level: number; text: string; expanded: string | null }[]> {
    return this.page.locator('.part.sidebar .monaco-list-row').evaluateAll((rows) =>
      rows.map((row) => {
        // (No named functions in here: the page runs this as source, without tsx's helpers.)
        const text = ['.label-name', '.label-description']
          .map((selector) =>
            ((row.querySelector(selector) as HTMLElement | null)?.innerText ?? '').replace(/\s+/g, ' ').trim(),
          )
          .filter(Boolean)
          .join(' ');
        return {
          level: Number(row.getAttribute('aria-level') ?? '0'),
          text: text || (row as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
          expanded: row.getAttribute('aria-expanded'),
        };
      }),
    );
  }

  /** The texts of the rows under the state group `state` (e.g. "DONE") in the Tasks tree. */
  async tasksUnder(state: string): Promise<string[]> {
    const rows = await this.sideBarTreeRows();
    const start = rows.findIndex((r) => r.level === 1 && (r.text === state || r.text.startsWith(`${state} `)));
    if (start < 0) return [];
    const under: string[] = [];
    for (const row of rows.slice(start + 1)) {
      if (row.level <= 1) break;
      if (row.level === 2) under.push(row.text);
    }
    return under;
  }

  /** Drags the side bar's edge so that it is `width` pixels wide. */
  async resizeSideBar(width: number): Promise<void> {
    const box = await this.page.locator('.part.sidebar').boundingBox();
    if (!box) throw new Error('the side bar is not visible');
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width - 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 8 });
    await this.page.mouse.up();
  }

  /** The text of the active editor, as rendered. */
  async activeEditorText(): Promise<string> {
    const text = await this.page
      .locator('.editor-group-container.active .monaco-editor .view-lines')
      .first()
      .innerText();
    return text.replace(/\u00a0/g, ' '); // the editor renders spaces as no-break spaces
  }

  /** The label of the active editor tab ('' when there is none). */
  async activeTabText(): Promise<string> {
    return this.page
      .locator('.tab.active')
      .innerText()
      .catch(() => '');
  }

  /** Waits until the active editor tab's label matches `name`. */
  async waitForActiveTab(name: RegExp, what = `the ${name} tab active`): Promise<void> {
    await poll(what, async () => (name.test(await this.activeTabText()) ? true : undefined));
  }

  /** Expands the side-bar tree row whose text starts with `prefix`, if it is collapsed. */
  async expandRow(prefix: string): Promise<void> {
    // By the row's own label, not its description: a task row's description can name its PR ("… · PR #3 open").
    const row = this.page
      .locator('.part.sidebar .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: prefix }) })
      .first();
    await row.waitFor({ state: 'visible' });
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
  }
}

/** The UI tests' wait: the one polling helper with a minute's patience, probing every 250 ms. */
export function poll<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  everyMs = 250,
): Promise<T> {
  return untilValue(what, probe, timeoutMs, everyMs);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The themes the UI tests take their screenshots in. */
export const THEMES = {
  light: 'Default Light Modern',
  dark: 'Default Dark Modern',
  hc: 'Default High Contrast',
} as const;

/**
 * Screenshots of the same view in each theme (`<out>/<name>-light.png`, `-dark.png`, `-hc.png`); `setTheme` writes the
 * `workbench.colorTheme` setting. The dark theme stays on.
 */
export async function themedShots(
  page: Page,
  out: string,
  name: string,
  setTheme: (theme: string) => void,
): Promise<void> {
  for (const [key, theme] of Object.entries(THEMES)) {
    setTheme(theme);
    await poll(`the ${theme} theme`, async () =>
      (await page.locator('.monaco-workbench').getAttribute('class'))?.includes(
        key === 'light' ? 'vs ' : key === 'dark' ? 'vs-dark' : 'hc-black',
      )
        ? true
        : undefined,
    );
    await page.waitForTimeout(800); // the theme's colours reach every part
    await page.screenshot({ path: join(out, `${name}-${key}.png`) });
  }
  setTheme(THEMES.dark);
}
