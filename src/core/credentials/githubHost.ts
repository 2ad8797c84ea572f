import { SwitchyardError } from '../errors';

/** The host a token for GitHub.com belongs to. */
export const GITHUB_COM = 'github.com';

/**
 * A GitHub host as tokens are stored for it: lower case, with a port only when it is not the scheme's default
 * (`github.com`, `ghe.example.com`, `127.0.0.1:8443`). Accepts a bare host or a URL; undefined for anything else.
 */
export function normalizeGitHubHost(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    return url.host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** 127.0.0.0/8, ::1 and localhost: a server on this machine, the one place plain http may carry a token. */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/**
 * The host whose token may go with a REST call to `apiUrl` (`github.apiUrl`): GitHub.com's API
 * (`https://api.github.com`) belongs to `github.com`; GitHub Enterprise Server's (`https://HOST/api/v3`) to HOST.
 * Plain http only to this machine: a token never crosses the network in clear. A setup error names the setting.
 */
export function restCredentialHost(apiUrl: string): string {
  const url = parseUrl(apiUrl, 'github.apiUrl');
  const host = url.host.toLowerCase();
  insecureCheck(url, host, `github.apiUrl (${url.origin})`);
  return host === 'api.github.com' ? GITHUB_COM : host;
}

/**
 * The host whose token may go with git's HTTP requests to `remoteUrl`, and the URL prefix git's
 * `http.<url>.extraHeader` is scoped to (so git itself sends the header to that origin only). Undefined for a
 * remote that takes no token from us (ssh, scp-like `git@host:o/r`, a local path).
 */
export function gitCredentialHost(remoteUrl: string): { host: string; origin: string } | undefined {
  const text = remoteUrl.trim();
  if (!/^https?:\/\//i.test(text)) return undefined;
  const url = parseUrl(text, 'integration.remote');
  const host = url.host.toLowerCase();
  insecureCheck(url, host, `the URL of integration.remote (${url.origin})`);
  return { host, origin: `${url.protocol}//${url.host}/` };
}

function parseUrl(text: string, setting: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new SwitchyardError('invalid-input', `${setting} is not a URL: set it to an https URL`);
  }
}

function insecureCheck(url: URL, host: string, what: string): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(host))) return;
  throw new SwitchyardError(
    'invalid-input',
    `${what} is not https: Switchyard sends a GitHub token only over https (plain http only to this machine); use the https URL`,
  );
}
