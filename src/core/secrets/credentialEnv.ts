/** Words of a variable name that make its value a credential. */
const CREDENTIAL_WORDS = new Set([
  'KEY',
  'KEYS',
  'APIKEY',
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'PASS',
  'PASSPHRASE',
  'PWD',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'AUTH',
  'AUTHORIZATION',
  'BEARER',
  'COOKIE',
  'DSN',
]);
/** A word ending in one of these (APIKEY, GHTOKEN, DBPASSWORD) counts too. */
const CREDENTIAL_ENDINGS = ['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD'];
/** A last word that says the value is about the credential, not the credential: AUTH_MODE, TOKEN_FILE, SECRET_URL. */
const NOT_A_VALUE = new Set([
  'FILE',
  'FILES',
  'PATH',
  'DIR',
  'URL',
  'URI',
  'ENDPOINT',
  'HOST',
  'PORT',
  'REGION',
  'MODE',
  'TYPE',
  'METHOD',
  'ENABLED',
  'DISABLED',
  'TIMEOUT',
  'TTL',
  'NAME',
  'USER',
  'USERNAME',
]);
/** Values shorter than this are not treated as credentials (flags, ports, "true"). */
export const MIN_CREDENTIAL_CHARS = 8;

/**
 * Whether an environment variable's name says its value is a credential:
 * the name, split into words at `_`, `-`, `.` and lower→upper case changes,
 * has a word KEY, TOKEN, SECRET, PASSWORD, PASSWD, PASS, PASSPHRASE, PWD,
 * CREDENTIAL(S), CREDS, AUTH, AUTHORIZATION, BEARER, COOKIE or DSN (or a
 * word ending in KEY, TOKEN, SECRET, PASSWORD, PASSWD), and its last word is not one that names something about the
 * credential (FILE, PATH, DIR, URL, URI, ENDPOINT, HOST, PORT, REGION, MODE,
 * TYPE, METHOD, ENABLED, DISABLED, TIMEOUT, TTL, NAME, USER, USERNAME).
 * `PWD` alone is the working directory, not a password; `SWITCHYARD_*`
 * variables are Switchyard's own.
 */
export function looksLikeCredential(name: string): boolean {
  // PWD alone is the working directory; Switchyard's own variables (SWITCHYARD_IDEMPOTENCY_KEY) are not credentials.
  if (name === 'PWD' || name === 'OLDPWD' || name.startsWith('SWITCHYARD_')) return false;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  if (!words.length || NOT_A_VALUE.has(words[words.length - 1]!)) return false;
  return words.some(
    (w) => CREDENTIAL_WORDS.has(w) || CREDENTIAL_ENDINGS.some((end) => w.length > end.length && w.endsWith(end)),
  );
}

/** Names a lane setting passes from the parent environment: `env` and `passEnv` entries, `PREFIX_*` expanded. */
export function passedEnvNames(settings: Readonly<Record<string, unknown>>, parent: NodeJS.ProcessEnv): string[] {
  const names = new Set<string>();
  for (const key of ['env', 'passEnv']) {
    const list = settings[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (typeof entry !== 'string') continue;
      if (!entry.endsWith('*')) names.add(entry);
      else for (const name of Object.keys(parent)) if (name.startsWith(entry.slice(0, -1))) names.add(name);
    }
  }
  return [...names];
}

/**
 * The credentials that reach a lane through its environment: variables of
 * the lane's environment (`laneEnv`: the allowlist and what the lane
 * declares) and parent variables its `env`/`passEnv` settings pass on, whose
 * names look like credentials and whose values have at least 8 characters.
 */
export function credentialsInEnv(
  laneEnv: Readonly<Record<string, string>>,
  settings: Readonly<Record<string, unknown>>,
  parent: NodeJS.ProcessEnv,
): Record<string, string> {
  const out: Record<string, string> = {};
  const consider = (name: string, value: string | undefined): void => {
    if (value !== undefined && value.trim().length >= MIN_CREDENTIAL_CHARS && looksLikeCredential(name))
      out[name] = value.trim();
  };
  for (const [name, value] of Object.entries(laneEnv)) consider(name, value);
  for (const name of passedEnvNames(settings, parent)) consider(name, parent[name]);
  return out;
}

/**
 * Adds the credentials `credentialsInEnv` finds to a run's redactor. Lanes
 * read passed-on variables from their own process's environment, which is
 * the host's parent environment except in embedded hosts; both are read.
 */
export function addEnvCredentials(
  redactor: { add(name: string, value: string): void },
  laneEnv: Readonly<Record<string, string>>,
  settings: Readonly<Record<string, unknown>>,
  parents: readonly NodeJS.ProcessEnv[],
): void {
  for (const parent of parents) {
    for (const [name, value] of Object.entries(credentialsInEnv(laneEnv, settings, parent))) redactor.add(name, value);
  }
}
