import * as vscode from 'vscode';
import type { LaneFix } from '../../core/lanes/lanePlugin';
import { COMMANDS, SETTINGS } from '../commandIds';
import { showMessage } from '../views/showMessage';
import { MANAGE_TRUST_COMMAND } from '../config/restrictedLanes';

/**
 * Takes the user to what makes a lane ready: a secret → Set API Key for it; a setting → the Settings editor at
 * `switchyard.lanes` (its schema completes the lane's keys in settings.json), or, when the setting is there but ignored
 * because the folder is not trusted (`restricted`), the Workspace Trust editor; a step outside VS Code → its hint.
 */
export async function configureLane(laneId: string, fix: LaneFix | undefined, restricted = false): Promise<void> {
  if (restricted) {
    await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
    return;
  }
  if (fix?.kind === 'secret') {
    await vscode.commands.executeCommand(COMMANDS.setApiKey, laneId, fix.secret);
    return;
  }
  if (fix?.kind === 'external') {
    void showMessage('info', `Switchyard: lane ${laneId}: ${fix.hint}`);
    return;
  }
  await openLaneSettings();
}

/** The Settings editor showing `switchyard.lanes` (the workspace's settings.json holds the lanes' values). */
export async function openLaneSettings(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS.section}.${SETTINGS.lanes}`);
}
