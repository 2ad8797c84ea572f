/** Variables every lane process gets from the parent environment, when set. */
export const BASE_ENV_ALLOWLIST: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ', 'TMPDIR',
  'SystemRoot', 'ComSpec', 'PATHEXT', 'TEMP', 'TMP',
];

/**
 * Builds a lane's environment from an allowlist: the base list, the names the
 * lane declares, and explicit values (task info, resolved secrets). Nothing
 * else of the parent environment is passed on.
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
  return { ...env, ...explicit };
}
