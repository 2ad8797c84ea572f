/**
 * Untrusted text (from a lane, a model, a task, a remote) made safe to show:
 * what reaches a terminal, a VS Code label or a webview is only the text a
 * person can read, never bytes that a terminal or a renderer acts on.
 *
 * - ANSI escape sequences are removed whole: CSI (`ESC [ … final`, colours,
 *   cursor moves), the string sequences OSC/DCS/SOS/PM/APC up to their BEL or
 *   ST, and the short `ESC x` forms; the same in their 8-bit C1 forms. An
 *   OSC 8 hyperlink keeps its visible text and loses its URL.
 * - Other C0 controls, DEL and C1 controls are removed; tab and newline stay
 *   (`\r\n`, a lone `\r`, NEL, U+2028 and U+2029 become `\n`). With `oneLine`,
 *   tabs and newlines become spaces.
 * - Bidirectional formatting characters (U+061C, U+200E, U+200F,
 *   U+202A–U+202E, U+2066–U+2069) are replaced by a visible `<U+202E>`
 *   placeholder, so that `photo\u202Egnp.exe` reads `photo<U+202E>gnp.exe`
 *   and not `photoexe.png`: the reader sees that the text tried to reorder itself.
 *
 * Pure and linear in the length; text without any of these comes back as is.
 */

export interface PlainTextOptions {
  /** Newlines and tabs become spaces (labels, descriptions, one-line messages). */
  oneLine?: boolean;
}

// Terminated string sequences: OSC (ESC ] / 0x9D), DCS (ESC P / 0x90), SOS (ESC X / 0x98), PM (ESC ^ / 0x9E), APC (ESC
// _ / 0x9F).
const STRING_SEQUENCE =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)/g;
// CSI: ESC [ or 0x9B, parameter bytes, intermediate bytes, one final byte.
const CSI = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]/g;
// Any other escape: ESC, intermediates, a final byte (charset selection, ESC 7, ESC c, a lone ESC ] …).
const OTHER_ESCAPE = /\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;
const NEWLINES = /\r\n?|[\u0085\u2028\u2029]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Anything plainText would change (a quick check for the common case of clean text). */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

export function plainText(text: string, options: PlainTextOptions = {}): string {
  let out = text;
  if (UNSAFE.test(out)) {
    out = out
      .replace(STRING_SEQUENCE, '')
      .replace(CSI, '')
      .replace(OTHER_ESCAPE, '')
      .replace(NEWLINES, '\n')
      .replace(CONTROLS, '')
      .replace(BIDI_CONTROLS, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
  }
  return options.oneLine ? out.replace(/[\t\n]+/g, ' ') : out;
}

/** `plainText(text, { oneLine: true })`. */
export function plainLine(text: string): string {
  return plainText(text, { oneLine: true });
}

/** True when `text` holds nothing plainText would remove or replace. */
export function isPlainText(text: string): boolean {
  return !UNSAFE.test(text);
}
