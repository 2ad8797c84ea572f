import * as vscode from 'vscode';
import { describePgUrl, parsePgUrl } from '../../core/project/backendChoice';
import { errorMessage } from '../../core/errors';
import { backendSettings } from '../config/switchyardConfig';
import { PromptCanceled, required } from '../prompts/promptCanceled';
import type { CommandDeps } from './commandDeps';
import { showMessage } from '../views/showMessage';

export interface SetPostgresConnectionResult {
  /** `stored`, or `cleared` for an empty value. Never the value. */
  action: 'stored' | 'cleared';
  /** `user@host:port/database` of the stored string (no password). */
  server?: string;
}

const PLACEHOLDER = 'postgres://user:password@host:5432/database';

/**
 * `switchyard.setPostgresConnection(value?)`: stores the postgres backend's
 * connection string in VS Code's SecretStorage (the OS keychain), never in
 * settings, and reopens the project so it connects with it. Without an
 * argument: a password input, checked as it is typed; an empty value removes
 * the stored string after a confirmation. A malformed string is an error that
 * never echoes it.
 */
export async function setPostgresConnection(
  deps: CommandDeps,
  valueArg?: unknown,
): Promise<SetPostgresConnectionResult> {
  const fromPrompt = typeof valueArg !== 'string';
  const value = (fromPrompt ? await askConnectionString() : valueArg).trim();
  if (!value) {
    if (fromPrompt) await confirmRemoval();
    await deps.secrets.postgres.delete();
    deps.host.reset();
    void showMessage('info', "Switchyard: removed the PostgreSQL connection string from VS Code's secret storage.");
    return { action: 'cleared' };
  }
  const server = describePgUrl(parsePgUrl(value));
  await deps.secrets.postgres.store(value);
  deps.host.reset();
  const folder = vscode.workspace.workspaceFolders?.[0];
  const next =
    backendSettings(folder).kind === 'postgres' ? 'reconnecting' : 'set switchyard.backend to "postgres" to use it';
  void showMessage(
    'info',
    `Switchyard: the PostgreSQL connection string for ${server} is stored in VS Code's secret storage; ${next}.`,
  );
  return { action: 'stored', server };
}

async function askConnectionString(): Promise<string> {
  return required(
    await vscode.window.showInputBox({
      title: 'Switchyard: PostgreSQL connection string',
      prompt:
        "For the postgres backend (switchyard.backend). Stored in VS Code's secret storage (the OS keychain), never in settings or logs. Leave empty to remove the stored one.",
      placeHolder: PLACEHOLDER,
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => {
        if (!text.trim()) return undefined;
        try {
          parsePgUrl(text.trim());
          return undefined;
        } catch (error) {
          return errorMessage(error);
        }
      },
    }),
  );
}

async function confirmRemoval(): Promise<void> {
  const remove = 'Remove';
  const choice = await vscode.window.showWarningMessage(
    'Remove the stored PostgreSQL connection string?',
    { modal: true, detail: 'The postgres backend then uses SWITCHYARD_DATABASE_URL of VS Code, if it is set.' },
    remove,
  );
  if (choice !== remove) throw new PromptCanceled();
}
