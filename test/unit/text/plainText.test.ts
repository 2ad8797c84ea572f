import * as assert from 'node:assert/strict';
import { escapeMarkdown } from '../../../src/core/text/escapeMarkdown';
import { notificationText } from '../../../src/core/text/notificationText';
import { isPlainText, plainLine, plainText } from '../../../src/core/text/plainText';
import { plainTextDeep } from '../../../src/core/text/plainTextDeep';

const ESC = '\u001b';
/** Every character that must never survive: C0 (but tab and newline), DEL, C1, and the bidi controls. */
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const COMMAND_LINK = '[fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)';
/** The same link pattern VS Code's notifications turn into links (src/vs/base/common/linkedText.ts, 1.100.3). */
const VSCODE_LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

describe('plainText: untrusted text made safe to show', () => {
  it('removes ANSI colours and cursor moves, keeping the words', () => {
    assert.equal(
      plainText(`${ESC}[31merror${ESC}[0m: ${ESC}[1;33mbad${ESC}[m ${ESC}[2K${ESC}[10Gdone`),
      'error: bad done',
    );
    assert.equal(plainText(`\u009b31mred\u009b0m`), 'red', 'the 8-bit CSI too');
  });

  it("keeps an OSC 8 hyperlink's visible text and drops its URL (BEL and ST terminators)", () => {
    const bel = `see ${ESC}]8;;https://evil.example/x${'\u0007'}the docs${ESC}]8;;${'\u0007'} now`;
    const st = `see ${ESC}]8;id=1;command:workbench.action.terminal.sendSequence${ESC}\\the docs${ESC}]8;;${ESC}\\ now`;
    assert.equal(plainText(bel), 'see the docs now');
    assert.equal(plainText(st), 'see the docs now');
    assert.doesNotMatch(plainText(st), /evil|command:/);
    assert.equal(plainText(`${ESC}]0;window title${'\u0007'}text`), 'text', 'a window-title OSC');
    assert.equal(plainText(`\u009d8;;https://x\u009clink\u009d8;;\u009c`), 'link', 'the 8-bit OSC and ST');
  });

  it('removes DCS/APC strings, short escapes, an unterminated OSC introducer, C0 and C1 controls', () => {
    assert.equal(plainText(`a${ESC}P1$r0m${ESC}\\b${ESC}_apc${ESC}\\c`), 'abc');
    assert.equal(plainText(`a${ESC}7b${ESC}8c${ESC}(Bd${ESC}c`), 'abcd');
    assert.equal(
      plainText(`x${ESC}]8;;https://never-terminated`),
      'x8;;https://never-terminated',
      'the ESC goes; the rest shows as text',
    );
    assert.equal(plainText('a\u0000b\u0007c\u0008d\u000be\u000cf\u007fg\u0080h\u009fi'), 'abcdefghi');
    assert.equal(plainText(`trailing ESC${ESC}`), 'trailing ESC');
  });

  it('keeps tab and newline; normalises CR, CRLF, NEL, U+2028/U+2029 to newlines', () => {
    assert.equal(plainText('a\tb\nc'), 'a\tb\nc');
    assert.equal(plainText('one\r\ntwo\rthree\u0085four\u2028five\u2029six'), 'one\ntwo\nthree\nfour\nfive\nsix');
    assert.equal(plainLine('one\r\ntwo\tthree\n\nfour'), 'one two three four');
  });

  it('shows bidi overrides and isolates as visible placeholders: "gnp.exe" after U+202E stays readable', () => {
    const shown = plainText('photo\u202Egnp.exe');
    assert.equal(shown, 'photo<U+202E>gnp.exe');
    assert.equal(
      plainText('\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C'),
      '<U+202A><U+202B><U+202C><U+202D><U+2066><U+2067><U+2068><U+2069><U+200E><U+200F><U+061C>',
    );
    assert.doesNotMatch(shown, FORBIDDEN);
  });

  it('leaves ordinary text (HTML, Markdown, Unicode, emoji with ZWJ) exactly as it is', () => {
    for (const text of ['<script>alert(1)</script>', '[a](b) *c* `d`', 'Grüße — 日本語 — עברית', '👩‍💻 done', '']) {
      assert.equal(plainText(text), text);
      assert.ok(isPlainText(text));
    }
  });

  it('never leaves a forbidden character, whatever the mix (a fuzz of 2,000 random strings)', () => {
    const alphabet = [
      ESC,
      '[',
      ']',
      '\u0007',
      '\\',
      '\u009b',
      '\u009c',
      '\u009d',
      'P',
      '_',
      '8',
      ';',
      'm',
      'a',
      '\r',
      '\n',
      '\t',
      '\u202e',
      '\u2066',
      '\u0000',
      '\u007f',
      '\u0085',
      ' ',
    ];
    let seed = 19;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2_000; n++) {
      let text = '';
      for (let i = next() % 40; i > 0; i--) text += alphabet[next() % alphabet.length];
      const shown = plainText(text);
      assert.doesNotMatch(shown, FORBIDDEN, JSON.stringify(text));
      assert.equal(plainText(shown), shown, `plainText is idempotent on ${JSON.stringify(text)}`);
      assert.doesNotMatch(plainLine(text), /[\n\t]/);
    }
  });

  it('is linear: 5 MB of escape-heavy text takes well under a few seconds', () => {
    const chunk = `${ESC}[31mred${ESC}[0m ${ESC}]8;;https://x${ESC}\\t${ESC}]8;;${ESC}\\ ${ESC}]unterminated \u202e `;
    const big = chunk.repeat(Math.ceil(5_000_000 / chunk.length));
    const started = performance.now();
    const shown = plainText(big);
    const ms = performance.now() - started;
    assert.doesNotMatch(shown, FORBIDDEN);
    assert.ok(ms < 5_000, `took ${ms.toFixed(0)} ms`);
  });
});

describe('notificationText: no link can form in a VS Code notification', () => {
  it("breaks `[fix](command:…)` and `[x](https://…)` so VS Code's link pattern finds nothing, keeping the words", () => {
    const reason = `\`node agent.mjs\` failed with exit code 1; stderr: ${ESC}[31mboom${ESC}[0m ${COMMAND_LINK} [docs](https://evil.example) [f](file:///etc/passwd)`;
    assert.match(reason, VSCODE_LINKED_TEXT, 'the raw text would be a link');
    const shown = notificationText(reason);
    assert.equal([...shown.matchAll(VSCODE_LINKED_TEXT)].length, 0, shown);
    assert.match(shown, /\[fix\] \(command:workbench\.action\.terminal\.sendSequence/);
    assert.doesNotMatch(shown, FORBIDDEN);
    assert.doesNotMatch(shown, /\n/);
  });

  it('no link even when brackets nest, repeat or hide behind control characters', () => {
    for (const text of [
      '[[a](command:x)](command:y)',
      '[a]](command:x)',
      `[a]${ESC}[0m(command:x)`,
      '[a]\u202e(command:x)',
      '[a]\r\n(command:x)',
      `[a]${'\u0000'}(https://x)`,
    ]) {
      const shown = notificationText(text);
      assert.equal([...shown.matchAll(VSCODE_LINKED_TEXT)].length, 0, `${JSON.stringify(text)} → ${shown}`);
    }
  });
});

describe('escapeMarkdown: untrusted text in a Markdown surface', () => {
  it('escapes link, image, autolink, HTML and emphasis syntax, and keeps lines', () => {
    const shown = escapeMarkdown(
      `Docs ${COMMAND_LINK} ![i](https://x/i.png) <https://x> <b>bold</b> *em* _u_ \`code\` https://bare.example\nline 2`,
    );
    assert.ok(shown.includes('\\[fix\\]\\(command\\:workbench\\.action\\.terminal\\.sendSequence'), shown);
    assert.ok(shown.includes('\\!\\[i\\]\\(https\\://x/i\\.png\\)'), shown);
    assert.ok(shown.includes('\\<b\\>bold\\</b\\>'), shown);
    assert.ok(shown.includes('https\\://bare\\.example'), 'no GFM autolink');
    assert.ok(shown.includes('\\\nline 2'), 'a hard line break');
    assert.doesNotMatch(shown, /(?<!\\)[[\]()<>]/, 'every bracket is escaped');
  });

  it('removes escape sequences and shows bidi characters as (escaped) placeholders', () => {
    assert.equal(escapeMarkdown(`${ESC}[31mred${ESC}[0m a\u202eb`), 'red a\\<U\\+202E\\>b');
  });
});

describe('plainTextDeep: a message to the webview', () => {
  it('cleans every string, nested, keys included, and returns clean values unchanged', () => {
    const clean = { a: 'x', list: ['y', { z: 1 }] };
    assert.equal(plainTextDeep(clean), clean, 'no copy when nothing changes');
    const dirty = {
      type: 'detail',
      detail: { runs: [{ failureReason: `${ESC}[31mboom${ESC}[0m\u202e`, n: 2, ok: true, none: null }] },
      [`k${ESC}[1m`]: 'v',
    };
    const shown = plainTextDeep(dirty);
    assert.deepEqual(shown, {
      type: 'detail',
      detail: { runs: [{ failureReason: 'boom<U+202E>', n: 2, ok: true, none: null }] },
      k: 'v',
    });
    assert.match(dirty.detail.runs[0]!.failureReason, /\u001b/, 'the input is not changed');
  });
});
