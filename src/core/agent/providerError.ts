import { APICallError } from 'ai';
import { classify, type Classification } from '../retry/classifyError';

/**
 * A model provider's error, normalized: one message that carries the HTTP
 * status, the provider's error type and its own words, plus the status,
 * code and response headers the classifier reads (429 + `retry-after`,
 * 529 `overloaded_error`, 524, `UND_ERR_SOCKET`, …).
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly status?: number,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Turns what the provider library threw or streamed into a ProviderError; an abort passes through untouched. */
export function toProviderError(error: unknown): unknown {
  if (error instanceof ProviderError || isAbort(error)) return error;
  if (APICallError.isInstance(error) && (error.statusCode ?? 0) < 300 && error.cause instanceof Error) {
    // The response started fine and then broke (a socket closed mid-stream): the cause says what happened.
    return connectionError(error.cause, error);
  }
  if (APICallError.isInstance(error)) {
    const body = parseBody(error.responseBody);
    const type = body?.type ?? body?.code;
    const said = body?.message ?? error.message;
    const status = error.statusCode;
    return new ProviderError(
      `${status ? `HTTP ${status}` : 'request failed'}${type ? ` ${type}` : ''}: ${said}`,
      status,
      error.responseHeaders ?? {},
      type,
      { cause: error },
    );
  }
  if (error && typeof error === 'object' && !(error instanceof Error)) {
    // An error event inside the stream, e.g. Anthropic's `event: error` with `{type: 'overloaded_error', message:
    // 'Overloaded'}`.
    const record = error as Record<string, unknown>;
    const inner = (typeof record.error === 'object' && record.error ? record.error : record) as Record<string, unknown>;
    const type = typeof inner.type === 'string' ? inner.type : typeof inner.code === 'string' ? inner.code : undefined;
    const said = typeof inner.message === 'string' ? inner.message : JSON.stringify(error);
    return new ProviderError(`stream error${type ? ` ${type}` : ''}: ${said}`, undefined, {}, type, { cause: error });
  }
  if (error instanceof Error) return connectionError(error, error);
  return new ProviderError(`model call failed: ${String(error)}`);
}

/** The classifier's verdict on a provider error (transient errors are retried; permanent ones fail the run). */
export function classifyProviderError(error: unknown): Classification {
  return classify(toProviderError(error));
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * A failure below HTTP (refused, reset, closed mid-stream), with every message and the error code of its cause chain.
 */
function connectionError(error: Error, original: unknown): ProviderError {
  const chain = causeChain(error);
  const code = chain.map((e) => (e as { code?: unknown }).code).find((c): c is string => typeof c === 'string');
  const words = [...new Set(chain.map((e) => e.message).filter(Boolean))];
  return new ProviderError(`connection failed: ${words.join(': ')}${code ? ` (${code})` : ''}`, undefined, {}, code, {
    cause: original,
  });
}

function causeChain(error: Error): Error[] {
  const chain: Error[] = [];
  for (let e: unknown = error; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}

function parseBody(text: string | undefined): { type?: string; code?: string; message?: string } | undefined {
  if (!text) return undefined;
  try {
    const json = JSON.parse(text) as { error?: unknown; type?: unknown; message?: unknown };
    const inner = (json.error && typeof json.error === 'object' ? json.error : json) as Record<string, unknown>;
    const str = (v: unknown): string | undefined =>
      typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined;
    return {
      type: str(inner.type),
      code: str(inner.code),
      message: str(inner.message) ?? (typeof json.error === 'string' ? json.error : undefined),
    };
  } catch {
    // Not JSON: a proxy's HTML error page (Cloudflare's 524) or plain text; its words, without the markup.
    return {
      message: text
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 500),
    };
  }
}
