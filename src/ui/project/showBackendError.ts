import * as vscode from 'vscode';
import { errorMessage, isSwitchyardError } from '../../core/errors';
import { COMMANDS, SETTINGS } from '../commandIds';
import { showMessage } from '../views/showMessage';

const SET_CONNECTION = 'Set Connection String';
const OPEN_SETTINGS = 'Open Settings';

/** A backend that is misconfigured, unreachable or from a newer schema: the user can fix it from the notification. */
export function isBackendError(error: unknown): boolean {
  return (
    isSwitchyardError(error, 'backend-config') ||
    isSwitchyardError(error, 'backend-unreachable') ||
    isSwitchyardError(error, 'backend-migrated')
  );
}

/** The error (it never holds the connection string), with the two ways to fix it. */
export async function showBackendError(error: unknown): Promise<void> {
  const choice = await showMessage('error', `Switchyard: ${errorMessage(error)}`, SET_CONNECTION, OPEN_SETTINGS);
  if (choice === SET_CONNECTION) await vscode.commands.executeCommand(COMMANDS.setPostgresConnection);
  else if (choice === OPEN_SETTINGS)
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS.section}.${SETTINGS.backend}`);
}
