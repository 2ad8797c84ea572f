import { isPlainText, plainText } from './plainText';

/**
 * A copy of a JSON-like value (a message to the queue panel) with plainText
 * applied to every string in it, keys included. Values without anything to
 * change are returned as they are (no copy), so the common case costs one
 * regular-expression test per string.
 */
export function plainTextDeep<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return isPlainText(value) ? value : plainText(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = clean(value[i]);
      if (next !== value[i]) (copy ??= value.slice())[i] = next;
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const next = clean(item);
      const safeKey = isPlainText(key) ? key : plainText(key);
      if (next !== item || safeKey !== key) {
        copy ??= { ...(value as Record<string, unknown>) };
        if (safeKey !== key) delete copy[key];
        copy[safeKey] = next;
      }
    }
    return copy ?? value;
  }
  return value;
}
