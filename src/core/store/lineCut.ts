/**
 * Long lines of lane output are cut with a marker saying how much of the line
 * was not kept. The lanes' line splitter (plugins/shared/lineSplitter.ts)
 * writes the same marker when it cuts a line before it reaches the host.
 */
// \u2026 (…): an escape, so the bundles stay ASCII (their loader reads ASCII faster than UTF-8).
const MARKER = / \u2026 \[line cut: (\d+) more bytes not kept\]$/;

export function lineCutMarker(bytes: number): string {
  return ` … [line cut: ${bytes} more bytes not kept]`;
}

/**
 * `text` cut to `maxChars` characters plus the marker; the dropped byte count includes what an earlier cut (the lane's
 * splitter) dropped.
 */
export function cutLine(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = maxChars;
  // Never half a surrogate pair.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  let rest = text.slice(cut);
  let earlier = 0;
  const marked = MARKER.exec(rest);
  if (marked) {
    earlier = Number(marked[1]);
    rest = rest.slice(0, marked.index);
  }
  return `${text.slice(0, cut)}${lineCutMarker(Buffer.byteLength(rest) + earlier)}`;
}

/**
 * Every string inside a JSON-like value longer than `maxChars` cut with the marker; the value itself is not changed.
 */
export function cutLongStrings<T>(value: T, maxChars: number): T {
  if (typeof value === 'string') return (value.length > maxChars ? cutLine(value, maxChars) : value) as T;
  if (Array.isArray(value)) return value.map((v) => cutLongStrings(v, maxChars)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cutLongStrings(v, maxChars);
    return out as T;
  }
  return value;
}
