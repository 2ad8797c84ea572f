import type { z } from 'zod';

export type ParsedLine<E> =
  | { kind: 'blank' }
  /** Not JSON at all (a banner, a warning, half a line): kept verbatim as a `log` event. */
  | { kind: 'garbage'; raw: string }
  /** JSON that is not an event of the CLI's known schema (a new event type): kept verbatim too. */
  | { kind: 'unknown'; raw: string; issue: string }
  | { kind: 'event'; event: E };

/** Parses one line of a CLI's line-delimited JSON stream with the CLI's zod schema, at the edge. */
export function parseStreamLine<E>(raw: string, schema: z.ZodType<E>): ParsedLine<E> {
  if (!raw.trim()) return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: 'garbage', raw };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      kind: 'unknown',
      raw,
      issue: issue ? `${issue.path.join('.') || 'event'}: ${issue.message}` : 'unrecognized event',
    };
  }
  return { kind: 'event', event: parsed.data };
}
