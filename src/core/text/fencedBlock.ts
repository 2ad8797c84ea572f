/**
 * `text` as a Markdown fenced code block whose fence is longer than any backtick run inside (at least three), so no
 * line of the text can close it (CommonMark 0.31 › Fenced code blocks: the closing fence must be at least as long as
 * the opening one, https://spec.commonmark.org/0.31.2/#fenced-code-blocks). Inside, GitHub shows everything as text:
 * no HTML, image, link or heading forms.
 *
 * With `maxChars`, the block (fences included) is at most that long: the text is cut, never the fence, and the
 * block says how much was left out; it is always closed. A block that cannot fit at all is the empty string. Cut
 * text only after redaction: a cut can fall inside a secret.
 */
export function fencedBlock(text: string, maxChars = Number.POSITIVE_INFINITY): string {
  const whole = wrap(text);
  if (whole.length <= maxChars) return whole;
  let keep = Math.min(text.length, Math.floor(maxChars));
  while (keep > 0) {
    const kept = sliceWhole(text, keep);
    const block = wrap(`${kept}\n… (${text.length - kept.length} more characters)`);
    if (block.length <= maxChars) return block;
    keep = Math.min(keep - 1, kept.length - (block.length - maxChars));
  }
  const empty = wrap(`… (${text.length} characters)`);
  return empty.length <= maxChars ? empty : '';
}

/** The longest run of backticks in `text`. */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}

function wrap(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}\n${text}\n${fence}`;
}

/** The first `n` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
function sliceWhole(text: string, n: number): string {
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}
