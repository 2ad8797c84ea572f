import * as vscode from 'vscode';
import type { LaneFix } from '../../core/project/laneService';
import { plainLine } from '../../core/text/plainText';
import { COMMANDS, SETTINGS } from '../commandIds';
import { showMessage } from '../views/showMessage';
import { MANAGE_TRUST, MANAGE_TRUST_COMMAND } from '../config/restrictedLanes';
import { openFixTerminal } from './fixTerminal';

const FIX_LABELS = {
  setting: 'Open Settings',
  secret: 'Set API Key',
  external: 'How to Fix',
} as const;

/** The button or row that applies `fix`: Open Settings, Set API Key, the lane's own label (Sign In), How to Fix. */
export function fixLabel(fix: LaneFix | undefined, restricted = false): string {
  if (restricted) return MANAGE_TRUST;
  if (!fix) return FIX_LABELS.setting;
  return fix.kind === 'terminal' ? plainLine(fix.label) : FIX_LABELS[fix.kind];
}

export interface FixOptions {
  /** The lane's settings are there but ignored because the folder is not trusted: the fix is to trust it. */
  readonly restricted?: boolean;
  /** Called when a step the user takes outside the editor (a terminal) is over: check the lane again. */
  readonly recheck?: () => void;
}

/**
 * Takes the user to what makes a lane ready: a secret → Set API Key for it; a command → an integrated terminal running
 * it (no shell), then `recheck` once it closes; a setting → the Settings editor at `switchyard.lanes` (its schema
 * completes the lane's keys in settings.json), or, when the setting is there but ignored because the folder is not
 * trusted (`restricted`), the Workspace Trust editor; a step outside VS Code → its hint.
 */
export async function configureLane(laneId: string, fix: LaneFix | undefined, options: FixOptions = {}): Promise<void> {
  if (options.restricted) {
    await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
    return;
  }
  if (fix?.kind === 'secret') {
    await vscode.commands.executeCommand(COMMANDS.setApiKey, laneId, fix.secret);
    return;
  }
  if (fix?.kind === 'terminal') {
    openFixTerminal(laneId, fix, options.recheck);
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
