import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Octokit } from '@octokit/rest';
import {
  githubAppTokenSource,
  secretTokenSource,
  type NamedCredentialSource,
} from '../../credentials/githubTokenSources';
import { GITHUB_COM, gitCredentialHost, restCredentialHost } from '../../credentials/githubHost';
import { TokenLender } from '../../credentials/tokenLender';
import { SwitchyardError, errorMessage } from '../../errors';
import { git } from '../../git/gitExec';
import { parseRepositoryName, repositoryFromRemoteUrl } from '../../github/githubRepository';
import type { ProjectSettings } from '../../store/projectState';
import type { RunContext } from '../runContext';

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
 * from the project's token lender: a GitHub App (`github.app`) or the GitHub token stored for the host of
 * `github.apiUrl` (SecretStorage in VS Code, the environment, then a secret command). The token is looked up by the
 * host a request goes to, so it never reaches another host: REST calls go to `github.apiUrl` only with the token of
 * its host, and git gets it only for URLs on that same host (`http.<origin>/.extraHeader`). A setting that cannot work
 * is a permanent error naming it. `onToken` sees each borrowed token (to add it to the run's redactor).
 */
export async function openGitHub(
  ctx: RunContext,
  settings: ProjectSettings,
  onToken: (token: string) => void,
): Promise<GitHubAccess> {
  const { remote } = settings.integration;
  const { apiUrl } = settings.github;
  const host = restCredentialHost(apiUrl);
  const urls = await remoteUrls(ctx.root, remote);
  let name = settings.github.repository ? parseRepositoryName(settings.github.repository) : undefined;
  if (!name) {
    if (!urls.named)
      throw new SwitchyardError(
        'invalid-input',
        `integration.remote "${remote}" is not a remote of this repository: add it (git remote add ${remote} URL) or set integration.remote`,
      );
    const first = urls.all[0] ?? '';
    name = repositoryFromRemoteUrl(first);
    if (!name)
      throw new SwitchyardError(
        'invalid-input',
        `the URL of integration.remote "${remote}" (${safeUrl(first)}) names no GitHub repository: set github.repository to owner/name`,
      );
  }
  const origins = gitOrigins(urls.all, host, remote);
  const { lender, source } = await lenderFor(ctx, settings, host);
  // Octokit loads on the first pull request, not with every process that can run one.
  const { Octokit } = await import('@octokit/rest');
  const octokit = new Octokit({ baseUrl: apiUrl.replace(/\/+$/, ''), log: QUIET, userAgent: 'switchyard' });
  octokit.hook.before('request', async (options) => {
    // Only to the token's host: a call whose URL is absolute (a pagination link) and on another host gets none.
    const target = /^https?:\/\//i.test(String(options.url)) ? String(options.url) : String(options.baseUrl ?? apiUrl);
    if (!sameHost(target, host)) return;
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
      const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
      if (!origins.length) return env;
      const loan = await lender.lend();
      onToken(loan.token);
      const basic = Buffer.from(`x-access-token:${loan.token}`).toString('base64');
      // Scoped to the host's origins: git sends the header to URLs under them only, whatever else it contacts.
      origins.forEach((origin, i) => {
        env[`GIT_CONFIG_KEY_${i}`] = `http.${origin}.extraHeader`;
        env[`GIT_CONFIG_VALUE_${i}`] = `Authorization: Basic ${basic}`;
      });
      env.GIT_CONFIG_COUNT = String(origins.length);
      return env;
    },
  };
}

/**
 * The URLs git uses for `remote` (fetch and push, `insteadOf` applied), or the value itself when it is a URL rather
 * than a remote's name.
 */
async function remoteUrls(root: string, remote: string): Promise<{ named: boolean; all: string[] }> {
  const fetchUrls = await git(root, ['remote', 'get-url', '--all', remote], [0, 2, 128]);
  if (fetchUrls.code !== 0) {
    const expanded = await git(root, ['ls-remote', '--get-url', remote], [0, 2, 128]);
    return { named: false, all: [expanded.code === 0 ? expanded.stdout.trim() : remote] };
  }
  const pushUrls = await git(root, ['remote', 'get-url', '--push', '--all', remote], [0, 2, 128]);
  const lines = `${fetchUrls.stdout}\n${pushUrls.code === 0 ? pushUrls.stdout : ''}`.split('\n');
  return { named: true, all: [...new Set(lines.map((l) => l.trim()).filter(Boolean))] };
}

/**
 * The origins git may send the token to: every http(s) URL of the remote must be on the token's host, else it is a
 * setup error (before anything is sent), naming the setting. ssh and local remotes take no token from us.
 */
function gitOrigins(urls: readonly string[], host: string, remote: string): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    const target = gitCredentialHost(url);
    if (!target) continue;
    if (target.host !== host)
      throw new SwitchyardError(
        'invalid-input',
        `integration.remote "${remote}" goes to ${target.host} (${safeUrl(url)}), but the GitHub token is for ${host} (github.apiUrl): a GitHub token is sent only to the host it belongs to, so none goes to ${target.host}; point integration.remote at the repository on ${host}, or set github.apiUrl to the API of ${target.host} and store a token for it`,
      );
    origins.add(target.origin);
  }
  return [...origins];
}

/** One lender per project and token source in this process, so a GitHub App token is minted once, not per call. */
async function lenderFor(
  ctx: RunContext,
  settings: ProjectSettings,
  host: string,
): Promise<{ lender: TokenLender; source: NamedCredentialSource }> {
  const app = settings.github.app;
  const key = JSON.stringify([host, settings.github.apiUrl, app ?? null]);
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
        `github.app.privateKeyFile ${app.privateKeyFile} cannot be read (${errorMessage(error)}): point it at the app's private key (PEM)`,
      );
    });
    const { Octokit } = await import('@octokit/rest');
    const request = new Octokit({ baseUrl: settings.github.apiUrl.replace(/\/+$/, ''), log: QUIET }).request;
    source = githubAppTokenSource({ appId: app.appId, installationId: app.installationId, privateKey, request });
  } else {
    source = secretTokenSource(
      () => ctx.githubTokens.get(host),
      `the GitHub token for ${host} (${ctx.githubTokens.name})`,
      missingToken(ctx, settings, host),
    );
  }
  const entry = { lender: new TokenLender(source), source };
  byKey.set(key, entry);
  return entry;
}

/** Whether a REST call to `url` may carry the token of `host` (an http URL off this machine may not). */
function sameHost(url: string, host: string): boolean {
  try {
    return restCredentialHost(url) === host;
  } catch {
    return false;
  }
}

/** What to do when no token is stored for `host`: how to store one, and why another host's token is not used. */
function missingToken(ctx: RunContext, settings: ProjectSettings, host: string): string {
  const store = `${ctx.githubTokens.howToSet(host)} (or set github.app)`;
  if (host === GITHUB_COM) return store;
  return `none is stored for ${host} (github.apiUrl ${settings.github.apiUrl}), and a GitHub token goes only to the host it was stored for (one for ${GITHUB_COM} does not go there). If ${host} is your GitHub Enterprise Server: ${store}. If github.apiUrl came with the repository and you did not mean it, set your own: switchyard config set --local github.apiUrl https://api.github.com`;
}

/** A remote URL without any user or password in it. */
export function safeUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
