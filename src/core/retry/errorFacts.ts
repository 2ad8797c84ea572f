/**
 * What the classifier looks at, gathered from whatever was thrown: a string,
 * an Error with `code` / `status` / `cause` (Node system errors, undici's
 * `fetch failed` with its cause, Octokit's RequestError with its response
 * headers), an AggregateError, or a plain object parsed from an API body.
 */
export interface ErrorFacts {
  /** Every message in the chain, one per line. */
  text: string;
  /** HTTP status codes found (the error's own first). */
  statuses: number[];
  /** Error codes (`ECONNRESET`, `UND_ERR_SOCKET`, `insufficient_quota`, …). */
  codes: string[];
  /** Response headers, lower-cased, when the error carries them. */
  headers: Record<string, string>;
}

const MAX_TEXT = 16_000;

export function errorFacts(error: unknown): ErrorFacts {
  const facts: ErrorFacts = { text: '', statuses: [], codes: [], headers: {} };
  const texts: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (value === null || value === undefined || depth > 6 || seen.has(value)) return;
    if (typeof value === 'string') return void texts.push(value);
    if (typeof value === 'number') return void addStatus(facts, value);
    if (typeof value !== 'object') return void texts.push(String(value));
    seen.add(value);
    const v = value as Record<string, unknown>;
    if (typeof v.message === 'string') texts.push(v.message);
    else if (!(value instanceof Error)) texts.push(safeJson(value));
    for (const key of ['status', 'statusCode', 'code', 'errno', 'type']) {
      const field = v[key];
      if (typeof field === 'number') addStatus(facts, field);
      else if (typeof field === 'string' && field) {
        if (/^\d{3}$/.test(field)) addStatus(facts, Number(field));
        else facts.codes.push(field);
      }
    }
    const response = v.response as Record<string, unknown> | undefined;
    if (response && typeof response === 'object') {
      if (typeof response.status === 'number') addStatus(facts, response.status);
      addHeaders(facts, response.headers);
      if (response.data !== undefined) visit(response.data, depth + 1);
    }
    addHeaders(facts, v.headers);
    if (v.error !== undefined) visit(v.error, depth + 1);
    if (v.cause !== undefined) visit(v.cause, depth + 1);
    if (Array.isArray(v.errors)) for (const e of v.errors.slice(0, 10)) visit(e, depth + 1);
  };
  visit(error, 0);
  facts.text = texts.join('\n').slice(0, MAX_TEXT);
  // A status a CLI lane wrote into its failure text ("API error (HTTP 529 …)", Claude Code's `api_error_status`).
  for (const m of facts.text.matchAll(/\bAPI error \(HTTP (\d{3})\b|\bapi_error_status\W{1,3}(\d{3})\b/gi))
    addStatus(facts, Number(m[1] ?? m[2]));
  return facts;
}

function addStatus(facts: ErrorFacts, n: number): void {
  if (Number.isInteger(n) && n >= 100 && n <= 599 && !facts.statuses.includes(n)) facts.statuses.push(n);
}

function addHeaders(facts: ErrorFacts, headers: unknown): void {
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return;
  const forEach = (headers as { forEach?: unknown }).forEach;
  if (typeof forEach === 'function') {
    // A Map or a fetch Headers object: forEach(value, key).
    (headers as Map<string, unknown>).forEach((value, key) => {
      facts.headers[String(key).toLowerCase()] = String(value);
    });
    return;
  }
  for (const [key, value] of Object.entries(headers))
    if (value !== undefined && value !== null) facts.headers[key.toLowerCase()] = String(value);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value).slice(0, 4_000);
  } catch {
    return String(value);
  }
}

/**
 * How long the server asked us to wait, in ms: `retry-after-ms`,
 * `retry-after` (seconds or an HTTP date), GitHub's `x-ratelimit-reset`
 * when no requests remain, or the wait stated in the message
 * ("Please try again in 9.816s", "Please retry after 6 seconds", `"retry_after":120`).
 */
export function retryAfterMs(facts: ErrorFacts, now = Date.now()): number | undefined {
  const h = facts.headers;
  if (h['retry-after-ms'] && Number.isFinite(Number(h['retry-after-ms'])))
    return Math.max(0, Number(h['retry-after-ms']));
  if (h['retry-after']) {
    const seconds = Number(h['retry-after']);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(h['retry-after']);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (h['x-ratelimit-remaining'] === '0' && h['x-ratelimit-reset']) {
    const reset = Number(h['x-ratelimit-reset']) * 1000;
    if (Number.isFinite(reset)) return Math.max(0, reset - now);
  }
  const m =
    /(?:try again in|retry after|retry in)\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b/i.exec(
      facts.text,
    );
  if (m) {
    const unit = m[2]!.toLowerCase();
    const factor = unit.startsWith('ms') || unit.startsWith('milli') ? 1 : unit.startsWith('m') ? 60_000 : 1000;
    return Math.round(Number(m[1]) * factor);
  }
  const json = /"retry_after"\s*:\s*(\d+(?:\.\d+)?)/.exec(facts.text);
  if (json) return Math.round(Number(json[1]) * 1000);
  return undefined;
}
