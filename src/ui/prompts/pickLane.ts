import * as vscode from 'vscode';
import type { LaneRegistry } from '../../core/lanes/laneRegistry';
import { required } from './promptCanceled';

interface LanePick extends vscode.QuickPickItem {
  laneId: string;
}

/** A QuickPick of the registered lanes: label the display name, description the id. */
export async function pickLane(registry: LaneRegistry, placeHolder: string, current?: string): Promise<string> {
  const lanes = registry.list();
  if (lanes.length === 0) throw new Error('no lanes are registered');
  const items: LanePick[] = lanes.map(({ manifest }) => ({
    label: manifest.displayName,
    description: manifest.id,
    detail: [manifest.description, manifest.id === current ? '(current)' : undefined].filter(Boolean).join(' '),
    laneId: manifest.id,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder,
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  return required(picked).laneId;
}
