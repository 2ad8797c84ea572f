/**
 * Where lane secrets (API keys, tokens) come from. The extension reads VS Code
 * SecretStorage, the CLI the environment; both fall back to a configured
 * secret command. A source throws when it is configured but fails (its own
 * error is shown), and answers undefined when it simply has no value.
 */
export interface SecretSource {
  readonly name: string;
  get(laneId: string, secret: string): Promise<string | undefined>;
  /** How a user sets `secret` for this source, for the "missing secret" message. */
  howToSet(laneId: string, secret: string): string;
}

/** Asks each source in turn; the first value wins. */
export function chainSecretSources(...sources: SecretSource[]): SecretSource {
  return {
    name: sources.map((s) => s.name).join(' → '),
    async get(laneId, secret) {
      for (const source of sources) {
        const value = await source.get(laneId, secret);
        if (value) return value;
      }
      return undefined;
    },
    howToSet: (laneId, secret) => sources.map((s) => s.howToSet(laneId, secret)).join(', or '),
  };
}

/** Secrets from environment variables of the same name (the CLI's source). */
export function envSecretSource(env: NodeJS.ProcessEnv): SecretSource {
  return {
    name: 'environment',
    get: async (_lane, secret) => env[secret] || undefined,
    howToSet: (_lane, secret) => `set the ${secret} environment variable`,
  };
}
