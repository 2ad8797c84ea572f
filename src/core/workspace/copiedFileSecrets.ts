import { open, stat } from 'node:fs/promises';
import { resolveInside } from './resolveInside';

/** A value shorter than this is not a secret of the run (`1`, `true`, `3000`, `dev`): it would match ordinary text. */
export const MIN_COPIED_VALUE_CHARS = 8;
/** A value whose key names a secret (`DB_PASSWORD`, `API_TOKEN`, …) counts from this many characters. */
export const MIN_NAMED_SECRET_CHARS = 6;
/** Only this much of a copied file is read for its secrets. */
export const MAX_COPIED_FILE_BYTES = 1024 * 1024;

const SECRET_KEY = /pass|pwd|secret|token|key|auth|credential|private|cookie|session|salt|dsn/i;
/** `KEY=value`, `export KEY="value"`, `key: value`, `"key": "value",` (env, ini, YAML and JSON lines alike). */
const KEY_VALUE = /^\s*(?:export\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*[=:]\s*(.*?)\s*,?\s*$/;
/**
 * Values that say nothing on their own: a plain word (`localhost`, `production`), a number, a boolean, a URL without
 * credentials, query or fragment (`https://api.example.com/v1`).
 */
const PLAIN =
  /^(?:[A-Za-z][A-Za-z_-]*|[-+]?\d+(?:\.\d+)?|true|false|null|none|yes|no|on|off|[a-z][a-z\d+.-]*:\/\/[^\s@?#]+)$/i;

export interface CopiedSecret {
  /** How it is named in redactions and guard findings: `DB_PASSWORD in .env`, `line 3 of certs/dev.pem`. */
  name: string;
  value: string;
}

/**
 * The secrets in the files `worktree.copy` puts into every worktree (read
 * from the main checkout, through the same real-path check as the copy; a
 * refused, missing or binary file gives none). Each `KEY=value` line
 * (also `export KEY=…`, quoted values, `key: value`, JSON `"key": "value"`)
 * gives its value; any other line gives itself, trimmed. Comments, section
 * headers and trivial values are skipped: shorter than 8 characters (6 when
 * the key names a secret: PASSWORD, TOKEN, KEY, SECRET, …), or a plain word,
 * number, boolean or URL without credentials unless the key names a secret. They become secrets of the
 * run: redacted everywhere, and a change holding one verbatim is blocked.
 */
export async function copiedFileSecrets(root: string, copy: readonly string[]): Promise<CopiedSecret[]> {
  const out: CopiedSecret[] = [];
  for (const path of copy) {
    const text = await readCopied(root, path).catch(() => undefined);
    if (text !== undefined) out.push(...fileSecrets(path, text));
  }
  return out;
}

/** The secrets of one copied file's text (see `copiedFileSecrets`). */
export function fileSecrets(path: string, text: string): CopiedSecret[] {
  const out: CopiedSecret[] = [];
  const seen = new Set<string>();
  const keep = (name: string, value: string): void => {
    if (seen.has(value)) return;
    seen.add(value);
    out.push({ name, value });
  };
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';') || line.startsWith('//')) continue;
    if (/^\[[^\]]*\]$/.test(line)) continue;
    const pair = KEY_VALUE.exec(line);
    if (pair) {
      const [, key = '', rawValue = ''] = pair;
      const value = unquote(rawValue);
      const named = SECRET_KEY.test(key);
      if (value.length >= (named ? MIN_NAMED_SECRET_CHARS : MIN_COPIED_VALUE_CHARS) && (named || !PLAIN.test(value)))
        keep(`${key} in ${path}`, value);
      continue;
    }
    if (line.length >= MIN_COPIED_VALUE_CHARS && !PLAIN.test(line)) keep(`line ${i + 1} of ${path}`, line);
  }
  return out;
}

/**
 * A quoted value without its quotes (the first line of a multi-line one without its opening quote); an unquoted one
 * without a trailing ` # comment`.
 */
function unquote(value: string): string {
  const quoted = /^(["'`])(.*)\1$/.exec(value);
  if (quoted) return quoted[2] ?? '';
  if (/^["'`]/.test(value)) return value.slice(1);
  return value.replace(/\s+#.*$/, '');
}

async function readCopied(root: string, path: string): Promise<string | undefined> {
  const source = await resolveInside(root, path);
  if (!source.ok || !source.exists || source.endsInSymlink) return undefined;
  const kind = await stat(source.real);
  if (!kind.isFile()) return undefined;
  const file = await open(source.real, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(kind.size, MAX_COPIED_FILE_BYTES));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    return bytes.includes(0) ? undefined : bytes.toString('utf8');
  } finally {
    await file.close();
  }
}
