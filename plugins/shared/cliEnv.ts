/**
 * The environment of a CLI agent process: the allowlisted environment the
 * host built (`input.env`), the parent variables the project explicitly
 * passes to this lane (`passEnv`: names, or prefixes such as `AWS_*`), and
 * the lane's resolved vendor secrets, which win. Cloud and customer
 * credentials of the parent process (AWS_*, GOOGLE_APPLICATION_CREDENTIALS,
 * AZURE_*, GH_TOKEN, GITHUB_TOKEN, …) reach the CLI only through `passEnv`.
 */
export function buildCliEnv(
  base: Readonly<Record<string, string>>,
  passEnv: readonly string[],
  parent: NodeJS.ProcessEnv,
  secrets: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = { ...base };
  for (const name of passedNames(passEnv, parent)) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...secrets };
}

function passedNames(passEnv: readonly string[], parent: NodeJS.ProcessEnv): string[] {
  const names: string[] = [];
  for (const entry of passEnv) {
    if (!entry.endsWith('*')) names.push(entry);
    else names.push(...Object.keys(parent).filter((key) => key.startsWith(entry.slice(0, -1))));
  }
  return names;
}

/** The resolved secrets under the variable names the CLI reads: `{ CLI_VAR: 'SECRET_NAME' }`. */
export function pickSecrets(
  secrets: Readonly<Record<string, string>>,
  vars: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [variable, secret] of Object.entries(vars)) {
    const value = secrets[secret];
    if (value) out[variable] = value;
  }
  return out;
}
