import type { LaneManifest, SettingType } from '../model/laneManifest';

export type SettingValue = { ok: true; value: unknown } | { ok: false; problem: string };

const EXPECTED: Record<SettingType, string> = {
  string: 'text',
  number: 'a number, e.g. 2.5',
  integer: 'a whole number, e.g. 600000',
  boolean: 'true or false',
  'string[]': 'a JSON list of strings, e.g. ["a","b"]',
  object: 'a JSON object, e.g. {"key":"value"}',
};

/**
 * The value of `key=raw` for a lane, as its manifest types the setting: a
 * `string` keeps the text exactly as typed (`command=true` is the command
 * `true`), numbers and booleans are parsed, lists and objects are JSON. A
 * key the manifest does not name, or a value of the wrong type, is a
 * problem naming the key and the expected type. A lane that documents no
 * settings, or a setting without a type, takes JSON or else text.
 */
export function parseSettingValue(manifest: LaneManifest, key: string, raw: string): SettingValue {
  const known = Object.keys(manifest.settings);
  const doc = manifest.settings[key];
  if (!doc) {
    if (!known.length) return { ok: true, value: jsonOrText(raw) };
    return { ok: false, problem: `lane "${manifest.id}" has no setting "${key}"; its settings: ${known.join(', ')}` };
  }
  if (!doc.type) return { ok: true, value: jsonOrText(raw) };
  const value = typed(doc.type, raw);
  if (value !== undefined) return { ok: true, value };
  return {
    ok: false,
    problem: `lane "${manifest.id}" setting "${key}" takes ${EXPECTED[doc.type]} (type ${doc.type}), not ${JSON.stringify(raw)}`,
  };
}

function typed(type: SettingType, raw: string): unknown {
  if (type === 'string') return raw;
  const text = raw.trim();
  if (type === 'number' || type === 'integer') {
    const n = text === '' ? Number.NaN : Number(text);
    return Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? n : undefined;
  }
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  const json = parseJson(text);
  if (type === 'string[]') return Array.isArray(json) && json.every((x) => typeof x === 'string') ? json : undefined;
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function jsonOrText(raw: string): unknown {
  const json = parseJson(raw);
  return json === undefined ? raw : json;
}
