import type { z } from 'zod';
import { SwitchyardError } from '../errors';
import { ProjectConfig } from './projectConfig';

interface Def {
  type: string;
  innerType?: z.ZodType;
  out?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  entries?: Record<string, string>;
  options?: z.ZodType[];
}

export function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema under defaults, optionals and pipes. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let at = schema;
  for (;;) {
    const def = defOf(at);
    if (def.innerType) at = def.innerType;
    else if (def.type === 'pipe' && def.out) at = defOf(def.out).type === 'transform' ? def.in! : def.out;
    else return at;
  }
}

const SKIP = new Set(['$schema', 'version']);

/** Every settable key of the config (objects' fields, dotted; records as `<name>`), for messages and completion. */
export function knownKeys(schema: z.ZodType = ProjectConfig, prefix = ''): string[] {
  const def = defOf(unwrap(schema));
  if (def.type === 'object' && def.shape) {
    return Object.entries(def.shape).flatMap(([k, s]) => {
      if (!prefix && SKIP.has(k)) return [];
      const key = prefix ? `${prefix}.${k}` : k;
      return [key, ...knownKeys(s, key)];
    });
  }
  if (def.type === 'record' && def.valueType)
    return [`${prefix}.<name>`, ...knownKeys(def.valueType, `${prefix}.<name>`)];
  return [];
}

/** The edit distance of two strings (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

export function nearestKey(key: string, keys: readonly string[]): string | undefined {
  let best: { key: string; d: number } | undefined;
  for (const k of keys) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (!best || d < best.d) best = { key: k, d };
  }
  return best?.key;
}

/** What a key's value must be, for messages: `a boolean`, `one of local, push`, `a JSON list`… */
export function expectedType(schema: z.ZodType): string {
  const def = defOf(unwrap(schema));
  switch (def.type) {
    case 'enum':
      return `one of ${Object.values(def.entries ?? {}).join(', ')}`;
    case 'object':
    case 'record':
      return 'a JSON object';
    case 'array':
      return 'a JSON list';
    case 'union':
      return (def.options ?? []).map(expectedType).join(' or ');
    case 'unknown':
    case 'any':
      return 'any JSON value';
    default:
      return `a ${def.type}`;
  }
}

export interface ResolvedKey {
  key: string;
  schema: z.ZodType;
  /** The value is taken as typed, not as JSON. */
  isText: boolean;
}

/** The schema of a dotted key; an unknown key is a permanent error naming the nearest valid key. */
export function resolveKey(key: string, root: z.ZodType = ProjectConfig): ResolvedKey {
  const keys = knownKeys(root);
  const fail = (): never => {
    const near = nearestKey(key, keys);
    throw new SwitchyardError(
      'invalid-input',
      `unknown config key "${key}"${near ? `; did you mean "${near}"?` : ''} (see \`switchyard config get\`)`,
    );
  };
  if (key === 'defaultLane')
    throw new SwitchyardError(
      'invalid-input',
      'defaultLane is routing, a recorded change: use `switchyard default-lane <lane> --why …`',
    );
  let at = root;
  const segments = key.split('.');
  for (const [i, segment] of segments.entries()) {
    if (!segment) fail();
    const def = defOf(unwrap(at));
    if (def.type === 'object' && def.shape && Object.hasOwn(def.shape, segment) && !(i === 0 && SKIP.has(segment)))
      at = def.shape[segment]!;
    else if (def.type === 'record' && def.valueType) at = def.valueType;
    else if (def.type === 'unknown' || def.type === 'any') break;
    else fail();
  }
  const type = defOf(unwrap(at)).type;
  return { key, schema: at, isText: type === 'string' || type === 'enum' };
}

/** The typed text as the key's value: JSON when it parses and the key is not text, else the text. */
export function parseKeyValue(resolved: ResolvedKey, text: string): unknown {
  if (resolved.isText) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
