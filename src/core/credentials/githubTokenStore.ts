import { GITHUB_COM, normalizeGitHubHost } from './githubHost';

/**
 * GitHub tokens by the host they were stored for, like the GitHub CLI's hosts: a token stored for `github.com` is
 * asked for only when a request goes to GitHub.com, one for `ghe.example.com` only for that server. `get` never
 * answers with another host's token.
 */
export interface GitHubTokenStore {
  /** Where the tokens come from, for messages (never a token). */
  readonly name: string;
  get(host: string): Promise<string | undefined>;
  /** How a user stores a token for `host` here. */
  howToSet(host: string): string;
}

/** The host `GH_HOST` binds the enterprise variables to (GitHub.com's own variables need no binding). */
export function boundEnterpriseHost(env: NodeJS.ProcessEnv): string | undefined {
  const host = normalizeGitHubHost(env.GH_HOST ?? '');
  return host && host !== GITHUB_COM ? host : undefined;
}

/**
 * The GitHub CLI's variables (https://cli.github.com/manual/gh_help_environment): `GH_TOKEN` / `GITHUB_TOKEN` belong
 * to github.com; `GH_ENTERPRISE_TOKEN` / `GITHUB_ENTERPRISE_TOKEN` to the host the user names in `GH_HOST` (where gh
 * would send them to any Enterprise Server, they go to that one host only). A repository cannot set either.
 */
export function envGitHubTokens(env: NodeJS.ProcessEnv): GitHubTokenStore {
  return {
    name: 'environment',
    async get(host) {
      if (host === GITHUB_COM) return env.GH_TOKEN || env.GITHUB_TOKEN || undefined;
      if (host === boundEnterpriseHost(env)) return env.GH_ENTERPRISE_TOKEN || env.GITHUB_ENTERPRISE_TOKEN || undefined;
      return undefined;
    },
    howToSet: (host) =>
      host === GITHUB_COM
        ? 'set the GITHUB_TOKEN (or GH_TOKEN) environment variable'
        : `set GH_HOST=${host} and GH_ENTERPRISE_TOKEN in the environment`,
  };
}

/**
 * Secret commands (`secretCommands`, e.g. `{"GITHUB_TOKEN": "gh auth token"}`) by the same names and the same
 * binding: `GITHUB_TOKEN`'s command answers for github.com, `GH_ENTERPRISE_TOKEN`'s for the host in `GH_HOST`.
 */
export function commandGitHubTokens(commands: NamedSecrets, env: NodeJS.ProcessEnv): GitHubTokenStore {
  const secretFor = (host: string) =>
    host === GITHUB_COM ? 'GITHUB_TOKEN' : host === boundEnterpriseHost(env) ? 'GH_ENTERPRISE_TOKEN' : undefined;
  return {
    name: commands.name,
    async get(host) {
      const secret = secretFor(host);
      return secret ? commands.get('github', secret) : undefined;
    },
    howToSet: (host) => commands.howToSet('github', secretFor(host) ?? 'GH_ENTERPRISE_TOKEN'),
  };
}

/** A source of named secrets (the shape of the secret-command source, which lives in a layer above). */
export interface NamedSecrets {
  readonly name: string;
  get(laneId: string, secret: string): Promise<string | undefined>;
  howToSet(laneId: string, secret: string): string;
}

/** Asks each store in turn for the host's token; the first wins. */
export function chainGitHubTokens(...stores: GitHubTokenStore[]): GitHubTokenStore {
  return {
    name: stores.map((s) => s.name).join(' → '),
    async get(host) {
      for (const store of stores) {
        const token = (await store.get(host))?.trim();
        if (token) return token;
      }
      return undefined;
    },
    howToSet: (host) => stores.map((s) => s.howToSet(host)).join(', or '),
  };
}
