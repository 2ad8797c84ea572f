import { plainText } from '../core/text/plainText';

/**
 * What the CLI writes to its stdout and stderr: the text made plain (see
 * plainText: no escape sequence, control or bidi character from a lane, a
 * task or a remote reaches the terminal; bidi characters show as `<U+202E>`).
 */
export function terminalText(text: string): string {
  return plainText(text);
}

const JSON_UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * `--json` output: the same data, with every character terminalText would
 * change written as a JSON `\uXXXX` escape instead (JSON.stringify leaves
 * C1 and bidi characters raw), so a JSON reader gets the exact strings and
 * the terminal gets no control byte.
 */
export function terminalJson(text: string): string {
  return text.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
