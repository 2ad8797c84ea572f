import { SwitchyardError } from '../errors';
import type { Credential, CredentialSource } from './tokenLender';

/** A credential source that can say where its tokens come from (for a refusal's message). Never the token itself. */
export interface NamedCredentialSource extends CredentialSource {
  readonly description: string;
}

/**
 * A token read from a secret (the environment's GITHUB_TOKEN, VS Code's SecretStorage, a secret command). Such a token
 * does not say when it expires, so it is lent for `ttlMs` and read again after: a token changed in the source is used
 * from then on.
 */
export function secretTokenSource(
  read: () => Promise<string | undefined>,
  description: string,
  howToSet: string,
  options: { ttlMs?: number; now?: () => number } = {},
): NamedCredentialSource {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  return {
    description,
    async refresh(): Promise<Credential> {
      const token = (await read())?.trim();
      if (!token)
        throw new SwitchyardError(
          'invalid-input',
          `integration.mode is "pull-request" but no GitHub token is set: ${howToSet}`,
        );
      return { token, expiresAt: now() + ttlMs };
    },
  };
}

export interface GitHubAppSourceOptions {
  appId: number | string;
  installationId: number;
  privateKey: string;
  /** Octokit's request function with the API's base URL (`new Octokit({ baseUrl }).request`). */
  request: unknown;
}

/**
 * Installation tokens of a GitHub App (`POST /app/installations/{id}/access_tokens`, signed with the app's key
 * through @octokit/auth-app). Every refresh asks for a new token: the lender refreshes only when less than its
 * threshold (5 minutes) is left, so a cached token that is about to expire is never lent.
 */
export function githubAppTokenSource(options: GitHubAppSourceOptions): NamedCredentialSource {
  // @octokit/auth-app loads on the first refresh, not with every process that might open a pull request.
  let auth: Promise<ReturnType<typeof import('@octokit/auth-app').createAppAuth>> | undefined;
  return {
    description: `the GitHub App ${options.appId} (installation ${options.installationId}, github.app)`,
    async refresh(): Promise<Credential> {
      auth ??= import('@octokit/auth-app').then(({ createAppAuth }) =>
        createAppAuth({
          appId: options.appId,
          privateKey: options.privateKey,
          installationId: options.installationId,
          request: options.request as never,
        }),
      );
      const result = await (await auth)({ type: 'installation', refresh: true });
      const expiresAt = Date.parse(result.expiresAt);
      if (!Number.isFinite(expiresAt))
        throw new SwitchyardError('invalid-input', 'GitHub answered an installation token without an expiry');
      return { token: result.token, expiresAt };
    },
  };
}
