import * as vscode from 'vscode';
import { PromptCanceled, required } from '../prompts/promptCanceled';
import type { CommandDeps } from './commandDeps';
import { showMessage } from '../views/showMessage';

/** The secret's name in the project's secret sources (SecretStorage key `switchyard.secret.GITHUB_TOKEN`). */
export const GITHUB_TOKEN_SECRET = 'GITHUB_TOKEN';

export interface SetGitHubTokenResult {
  /** `stored` or `cleared`. Never the value. */
  action: 'stored' | 'cleared';
}

/**
 * `switchyard.setGitHubToken(value? | {clear: true})`: stores the GitHub token the pull-request integration borrows
 * in VS Code's SecretStorage (the OS keychain) as `GITHUB_TOKEN`, never in settings or logs. Without an argument: a
 * password input that refuses an empty value; when a token is stored already, first a choice to replace or remove
 * it. The value is never shown, logged or returned.
 */
export async function setGitHubToken(deps: CommandDeps, arg?: unknown): Promise<SetGitHubTokenResult> {
  const clear =
    typeof arg === 'object' && arg !== null && (arg as { clear?: unknown }).clear === true
      ? true
      : typeof arg === 'string'
        ? false
        : await askClear(deps);
  if (clear) {
    await deps.secrets.delete(GITHUB_TOKEN_SECRET);
    void showMessage('info', "Switchyard: removed the GitHub token from VS Code's secret storage.");
    return { action: 'cleared' };
  }
  const value = typeof arg === 'string' ? arg.trim() : await askToken();
  const problem = tokenProblem(value);
  if (problem) throw new Error(`Switchyard: Set GitHub Token: ${problem}`);
  await deps.secrets.store(GITHUB_TOKEN_SECRET, value);
  void showMessage(
    'info',
    "Switchyard: the GitHub token is stored in VS Code's secret storage; the next push and pull request use it.",
  );
  return { action: 'stored' };
}

/** Why a typed token cannot be one (never echoing it), or undefined. */
export function tokenProblem(value: string): string | undefined {
  if (!value.trim()) return 'the token must not be empty';
  if (/\s/.test(value.trim())) return 'a token has no spaces or line breaks';
  return undefined;
}

/** No token stored: set one. A token stored: replace it, or remove it. */
async function askClear(deps: CommandDeps): Promise<boolean> {
  if (!(await deps.secrets.has(GITHUB_TOKEN_SECRET))) return false;
  const replace = { label: 'Replace the stored GitHub token', clear: false };
  const remove = { label: 'Remove the stored GitHub token', clear: true };
  const picked = required(
    await vscode.window.showQuickPick([replace, remove], {
      title: 'Switchyard: GitHub token',
      placeHolder: "A GitHub token is stored in VS Code's secret storage",
      ignoreFocusOut: true,
    }),
  );
  return picked.clear;
}

async function askToken(): Promise<string> {
  const value = await vscode.window.showInputBox({
    title: 'Switchyard: GitHub token',
    prompt:
      'For pushing run branches and opening, watching and merging pull requests (integration.mode ' +
      '"pull-request"). Stored in VS Code\'s secret storage (the OS keychain), never in settings or logs.',
    placeHolder: 'github_pat_… or ghp_…',
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => tokenProblem(text),
  });
  if (value === undefined) throw new PromptCanceled();
  return value.trim();
}
