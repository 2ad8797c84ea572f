/**
 * A secret's value is redacted when it has at least this many characters; very short values would redact ordinary text.
 */
export const MIN_SECRET_CHARS = 6;
/** A cut-off piece of a secret (its first or last characters) of at least this length is redacted too. */
export const MIN_FRAGMENT_CHARS = 8;

interface Entry {
  value: string;
  name: string;
}

/**
 * Replaces known secret values with `[redacted NAME]` in anything on its way
 * to a log, the journal, an event, an error, a diff or the webview.
 *
 * Text is cut in many places (a tool's output clipped to its tail, an error
 * line shortened, a stream capped, a line cut), and a cut can fall inside a
 * secret. So besides whole values, every piece of at least 8 characters that
 * is the beginning or the end of a secret is redacted wherever it appears
 * (`[redacted part of NAME]`): whatever marker the cut left next to it.
 * A multi-line secret's lines are secrets too, and so are its JSON-escaped
 * form (for lines that are already JSON) and its URL-encoded form.
 */
export class Redactor {
  private entries: Entry[] = [];
  private readonly originals = new Map<string, string>();

  add(name: string, value: string): void {
    if (value.length < MIN_SECRET_CHARS || this.originals.has(value)) return;
    this.originals.set(value, name);
    const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
    for (const line of value.split(/\r?\n/)) if (line.trim().length >= MIN_FRAGMENT_CHARS) forms.add(line.trim());
    for (const form of forms) if (!this.entries.some((e) => e.value === form)) this.entries.push({ value: form, name });
    // Longest first, so a secret that contains another is replaced whole.
    this.entries.sort((a, b) => b.value.length - a.value.length);
  }

  get size(): number {
    return this.originals.size;
  }

  /**
   * The values added (and the lines of multi-line ones), with their names, for the scan that blocks a change holding
   * one: never to be shown.
   */
  known(): { name: string; value: string }[] {
    const out: { name: string; value: string }[] = [];
    for (const [value, name] of this.originals) {
      out.push({ name, value });
      if (value.includes('\n'))
        for (const line of value.split(/\r?\n/))
          if (line.trim().length >= MIN_FRAGMENT_CHARS) out.push({ name, value: line.trim() });
    }
    return out;
  }

  redact(text: string): string {
    if (!this.entries.length || !text) return text;
    let out = text;
    for (const { value, name } of this.entries) {
      if (out.includes(value)) out = out.split(value).join(`[redacted ${name}]`);
    }
    for (const entry of this.entries) {
      if (entry.value.length <= MIN_FRAGMENT_CHARS) continue;
      out = redactPrefixes(out, entry);
      out = redactSuffixes(out, entry);
    }
    return out;
  }

  /** Redacts every string inside a JSON-like value. */
  redactValue<T>(value: T): T {
    if (!this.entries.length) return value;
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? this.redact(v) : v)) ?? 'null';
    // A second pass over the JSON text catches escaped forms and keys; should it ever break the JSON, the per-string
    // result stands.
    try {
      return JSON.parse(this.redact(text)) as T;
    } catch {
      return JSON.parse(text) as T;
    }
  }
}

/** Every run of ≥ 8 characters that is the beginning of `value` (the end of the text was cut inside it). */
function redactPrefixes(text: string, { value, name }: Entry): string {
  const head = value.slice(0, MIN_FRAGMENT_CHARS);
  let at = text.indexOf(head);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    let n = MIN_FRAGMENT_CHARS;
    while (n < value.length && text[at + n] === value[n]) n++;
    out += `${text.slice(from, at)}[redacted part of ${name}]`;
    from = at + n;
    at = text.indexOf(head, from);
  }
  return out + text.slice(from);
}

/** Every run of ≥ 8 characters that is the end of `value` (the beginning of the text was cut inside it). */
function redactSuffixes(text: string, { value, name }: Entry): string {
  const tail = value.slice(-MIN_FRAGMENT_CHARS);
  let at = text.indexOf(tail);
  if (at < 0) return text;
  const pieces: [number, number][] = [];
  let floor = 0;
  while (at >= 0) {
    const end = at + MIN_FRAGMENT_CHARS;
    let n = MIN_FRAGMENT_CHARS;
    while (n < value.length && end - n - 1 >= floor && text[end - n - 1] === value[value.length - n - 1]) n++;
    pieces.push([end - n, end]);
    floor = end;
    at = text.indexOf(tail, end);
  }
  let out = '';
  let from = 0;
  for (const [start, end] of pieces) {
    out += `${text.slice(from, start)}[redacted part of ${name}]`;
    from = end;
  }
  return out + text.slice(from);
}
