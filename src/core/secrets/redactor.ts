/**
 * Replaces known secret values with `[redacted NAME]` in anything on its way
 * to a log, the journal, an event, an error or the webview.
 */
export class Redactor {
  private readonly secrets = new Map<string, string>();

  add(name: string, value: string): void {
    // Very short values would redact ordinary text; real keys are long.
    if (value.length >= 6) this.secrets.set(value, name);
  }

  get size(): number {
    return this.secrets.size;
  }

  redact(text: string): string {
    let out = text;
    for (const [value, name] of this.secrets) {
      if (out.includes(value)) out = out.split(value).join(`[redacted ${name}]`);
    }
    return out;
  }

  /** Redacts every string inside a JSON-like value. */
  redactValue<T>(value: T): T {
    if (!this.secrets.size) return value;
    return JSON.parse(this.redact(JSON.stringify(value) ?? 'null')) as T;
  }
}
