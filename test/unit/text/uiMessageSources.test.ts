import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

// A check of the extension's sources, so that a new notification or Markdown
// surface cannot skip the escaping: every notification goes through
// showMessage (src/ui/views/showMessage.ts, which applies notificationText),
// and a file that builds a MarkdownString escapes with escapeMarkdown. The
// UI test test/ui/untrustedText.test.ts checks what a person then sees.

const UI = join(process.cwd(), 'src', 'ui');
const WEBVIEW = join(process.cwd(), 'webview');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

describe('src/ui shows untrusted text only through the escapers', () => {
  it('calls vscode.window.show*Message only in showMessage.ts (and for one constant modal confirmation)', () => {
    const direct: string[] = [];
    for (const file of files(UI)) {
      const name = relative(UI, file);
      if (name === join('views', 'showMessage.ts')) continue;
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/\bshow(Information|Warning|Error)Message\(([^)]*)/g)) {
        const modalConstant = /^\s*'[^'`$]*',\s*\{\s*modal: true/.test(
          source.slice(match.index! + match[0].length - match[2]!.length, match.index! + match[0].length + 80),
        );
        if (!modalConstant) direct.push(`${name}: ${match[0].slice(0, 80)}`);
      }
    }
    assert.deepEqual(direct, [], 'use showMessage(kind, text, …items) from src/ui/views/showMessage.ts');
  });

  it('builds a MarkdownString only with escapeMarkdown, never trusted or with HTML', () => {
    for (const file of files(UI)) {
      const source = readFileSync(file, 'utf8');
      if (!/MarkdownString/.test(source)) continue;
      assert.match(
        source,
        /escapeMarkdown\(/,
        `${relative(UI, file)} builds a MarkdownString: escape untrusted parts with escapeMarkdown`,
      );
      assert.doesNotMatch(
        source,
        /isTrusted\s*[:=]\s*true|supportHtml\s*[:=]\s*true/,
        `${relative(UI, file)}: no trusted or HTML MarkdownString`,
      );
    }
  });

  it('the queue panel page builds its DOM from text only: no innerHTML, outerHTML, insertAdjacentHTML or document.write', () => {
    for (const file of files(WEBVIEW)) {
      assert.doesNotMatch(
        readFileSync(file, 'utf8'),
        /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write/,
        `${relative(WEBVIEW, file)} sets HTML from a string`,
      );
    }
  });
});
