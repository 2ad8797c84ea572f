import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Octokit } from '@octokit/rest';
import { githubAppTokenSource, secretTokenSource, type NamedCredentialSource } from '../credentials/githubTokenSources';
import { TokenLender } from '../credentials/tokenLender';
import { SwitchyardError, errorMessage } from '../errors';
import { git } from '../git/gitExec';
import { parseRepositoryName, repositoryFromRemoteUrl } from '../guards/githubRepository';
import type { ProjectSettings } from '../store/projectState';
import type { RunContext } from './runContext';

/** How the pull-request flow reaches one GitHub repository: a client whose every call borrows a token. */
export interface GitHubAccess {
  octokit: Octokit;
  owner: string;
  repo: string;
  /** Where tokens come from, for messages (never a token). */
  source: string;
  /**
   * The environment for one git command against the remote: the borrowed token as an HTTP header through
   * GIT_CONFIG_*, so it is in no URL, no argument list and no config file.
   */
  gitEnv(): Promise<Record<string, string>>;
}

const QUIET = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const lenders = new WeakMap<RunContext, Map<string, { lender: TokenLender; source: NamedCredentialSource }>>();

/**
 * The repository (`github.repository`, or read from the URL of `integration.remote`) and a client for it, with tokens
 * from the project's token lender: a GitHub App (`github.app`) or the secret GITHUB_TOKEN (SecretStorage in VS Code,
 * the environment in the CLI, then a secret command). A setting that cannot work is a permanent error naming it.
 * `onToken` sees each borrowed token (to add it to the run's redactor).
 */
export async function openGitHub(
  ctx: RunContext,
  settings: ProjectSettings,
  onToken: (token: string) => void,
): Promise<GitHubAccess> {
  const { remote } = settings.integration;
  const { apiUrl } = settings.github;
  let name = settings.github.repository ? parseRepositoryName(settings.github.repository) : undefined;
  if (!name) {
    const url = await git(ctx.root, ['remote', 'get-url', remote], [0, 2, 128]);
    if (url.code !== 0)
      throw new SwitchyardError(
        'invalid-input',
        `integration.remote "${remote}" is not a remote of this repository: add it (git remote add ${remote} URL) ` +
          `or set integration.remote`,
      );
    name = repositoryFromRemoteUrl(url.stdout);
    if (!name)
      throw new SwitchyardError(
        'invalid-input',
        `the URL of integration.remote "${remote}" (${safeUrl(url.stdout.trim())}) names no GitHub repository: set ` +
          `github.repository to owner/name`,
      );
  }
  const { lender, source } = await lenderFor(ctx, settings);
  // Octokit loads on the first pull request, not with every process that can run one.
  const { Octokit } = await import('@octokit/rest');
  const octokit = new Octokit({ baseUrl: apiUrl.replace(/\/+$/, ''), log: QUIET, userAgent: 'switchyard' });
  octokit.hook.before('request', async (options) => {
    const loan = await lender.lend();
    onToken(loan.token);
    options.headers.authorization = `token ${loan.token}`;
  });
  return {
    octokit,
    owner: name.owner,
    repo: name.repo,
    source: source.description,
    async gitEnv() {
      const loan = await lender.lend();
      onToken(loan.token);
      const basic = Buffer.from(`x-access-token:${loan.token}`).toString('base64');
      return {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.extraHeader',
        GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
        GIT_TERMINAL_PROMPT: '0',
      };
    },
  };
}

/** One lender per project and token source in this process, so a GitHub App token is minted once, not per call. */
async function lenderFor(
  ctx: RunContext,
  settings: ProjectSettings,
): Promise<{ lender: TokenLender; source: NamedCredentialSource }> {
  const app = settings.github.app;
  const key = JSON.stringify([settings.github.apiUrl, app ?? null]);
  let byKey = lenders.get(ctx);
  if (!byKey) lenders.set(ctx, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) return known;
  let source: NamedCredentialSource;
  if (app) {
    const file = isAbsolute(app.privateKeyFile) ? app.privateKeyFile : join(ctx.root, app.privateKeyFile);
    const privateKey = await readFile(file, 'utf8').catch((error) => {
      throw new SwitchyardError(
        'invalid-input',
        `github.app.privateKeyFile ${app.privateKeyFile} cannot be read (${errorMessage(error)}): point it at the ` +
          `app's private key (PEM)`,
      );
    });
    const { Octokit } = await import('@octokit/rest');
    const request = new Octokit({ baseUrl: settings.github.apiUrl.replace(/\/+$/, ''), log: QUIET }).request;
    source = githubAppTokenSource({ appId: app.appId, installationId: app.installationId, privateKey, request });
  } else {
    source = secretTokenSource(
      () => ctx.secrets.get('github', 'GITHUB_TOKEN'),
      `the GITHUB_TOKEN secret (${ctx.secrets.name})`,
      ctx.secrets.howToSet('github', 'GITHUB_TOKEN'),
    );
  }
  const entry = { lender: new TokenLender(source), source };
  byKey.set(key, entry);
  return entry;
}

/** A remote URL without any user or password in it. */
export function safeUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
