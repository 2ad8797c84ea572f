import { fitEnvValue } from './taskSpecEnv';

/** Variables every lane process gets from the parent environment, when set. */
export const BASE_ENV_ALLOWLIST: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TZ',
  'TMPDIR',
  'SystemRoot',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
];

/**
 * Builds a lane's environment from an allowlist: the base list, the names the
 * lane declares, and explicit values (task info, resolved secrets). Nothing
 * else of the parent environment is passed on. An explicit value too large
 * for one environment variable (feedback, the file list) is cut with a note,
 * so the lane still starts (a value over Linux's 128 KiB makes exec fail).
 */
export function buildLaneEnv(
  parent: NodeJS.ProcessEnv,
  extraAllowed: readonly string[],
  explicit: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV_ALLOWLIST, ...extraAllowed]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  const fitted = Object.fromEntries(Object.entries(explicit).map(([name, value]) => [name, fitEnvValue(value, name)]));
  return { ...env, ...fitted };
}
