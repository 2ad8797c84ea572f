import * as vscode from 'vscode';
import { GITHUB_COM, normalizeGitHubHost, restCredentialHost } from '../../core/project/projectOptions';
import { PromptCanceled, required } from '../prompts/promptCanceled';
import type { CommandDeps } from './commandDeps';
import { showMessage } from '../views/showMessage';

export interface SetGitHubTokenResult {
  /** `stored` or `cleared`. Never the value. */
  action: 'stored' | 'cleared';
  /** The host the token is stored for (and sent to only). */
  host: string;
}

/**
 * `switchyard.setGitHubToken(value? | {token, host} | {clear: true, host?})`: stores the GitHub token the
 * pull-request integration borrows in VS Code's SecretStorage (the OS keychain), for one host: a token for
 * `github.com` (the default) is sent only to GitHub.com, one for an Enterprise Server only to that server, whatever a
 * workspace's settings name. Never in settings or logs. Without an argument: the host (prefilled with the open
 * project's, from github.apiUrl), then, when a token is stored for it already, a choice to replace or remove it, then
 * a password input that refuses an empty value. The value is never shown, logged or returned.
 */
export async function setGitHubToken(deps: CommandDeps, arg?: unknown): Promise<SetGitHubTokenResult> {
  const given =
    typeof arg === 'object' && arg !== null ? (arg as { token?: unknown; host?: unknown; clear?: unknown }) : {};
  const host =
    typeof arg === 'string'
      ? GITHUB_COM
      : typeof given.host === 'string'
        ? hostOrThrow(given.host)
        : typeof given.token === 'string' || given.clear === true
          ? GITHUB_COM
          : await askHost(deps);
  const store = deps.secrets.github;
  const clear =
    given.clear === true
      ? true
      : typeof arg === 'string' || typeof given.token === 'string'
        ? false
        : await askClear(deps, host);
  if (clear) {
    await store.delete(host);
    void showMessage('info', `Switchyard: removed the GitHub token for ${host} from VS Code's secret storage.`);
    return { action: 'cleared', host };
  }
  const value =
    typeof arg === 'string' ? arg.trim() : typeof given.token === 'string' ? given.token.trim() : await askToken(host);
  const problem = tokenProblem(value);
  if (problem) throw new Error(`Switchyard: Set GitHub Token: ${problem}`);
  await store.store(host, value);
  void showMessage(
    'info',
    `Switchyard: the GitHub token for ${host} is stored in VS Code's secret storage; it is sent only to ${host}.`,
  );
  return { action: 'stored', host };
}

/** Why a typed token cannot be one (never echoing it), or undefined. */
export function tokenProblem(value: string): string | undefined {
  if (!value.trim()) return 'the token must not be empty';
  if (/\s/.test(value.trim())) return 'a token has no spaces or line breaks';
  return undefined;
}

function hostOrThrow(text: string): string {
  const host = normalizeGitHubHost(text);
  if (!host) throw new Error(`Switchyard: Set GitHub Token: "${text}" is not a host name (e.g. github.com)`);
  return host;
}

/** The host, prefilled with the open project's (from its github.apiUrl) or github.com. */
async function askHost(deps: CommandDeps): Promise<string> {
  let suggested = GITHUB_COM;
  try {
    suggested = restCredentialHost((await (await deps.host.get()).state()).settings.github.apiUrl);
  } catch {
    // No project, or an apiUrl that takes no token: suggest github.com.
  }
  const value = await vscode.window.showInputBox({
    title: 'Switchyard: GitHub token: host',
    prompt:
      'The GitHub host this token belongs to: github.com, or your GitHub Enterprise Server. The token is sent to that host only.',
    value: suggested,
    ignoreFocusOut: true,
    validateInput: (text) => (normalizeGitHubHost(text) ? undefined : 'a host name, e.g. github.com'),
  });
  if (value === undefined) throw new PromptCanceled();
  return hostOrThrow(value);
}

/** No token stored for the host: set one. A token stored: replace it, or remove it. */
async function askClear(deps: CommandDeps, host: string): Promise<boolean> {
  if (!(await deps.secrets.github.has(host))) return false;
  const replace = { label: `Replace the stored GitHub token for ${host}`, clear: false };
  const remove = { label: `Remove the stored GitHub token for ${host}`, clear: true };
  const picked = required(
    await vscode.window.showQuickPick([replace, remove], {
      title: 'Switchyard: GitHub token',
      placeHolder: `A GitHub token for ${host} is stored in VS Code's secret storage`,
      ignoreFocusOut: true,
    }),
  );
  return picked.clear;
}

async function askToken(host: string): Promise<string> {
  const value = await vscode.window.showInputBox({
    title: `Switchyard: GitHub token for ${host}`,
    prompt: `For pushing run branches and opening, watching and merging pull requests (integration.mode "pull-request"). Sent only to ${host}; stored in VS Code's secret storage (the OS keychain), never in settings or logs.`,
    placeHolder: 'github_pat_… or ghp_…',
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => tokenProblem(text),
  });
  if (value === undefined) throw new PromptCanceled();
  return value.trim();
}
