import * as vscode from 'vscode';
import type { LaneRegistry } from '../../core/project/projectOptions';
import type { SecretStorageSource } from '../secrets/secretStorageSource';
import { required } from './promptCanceled';
import { quickPickText } from './quickPickText';

interface SecretPick extends vscode.QuickPickItem {
  laneId: string;
  secret: string;
}

/** The secrets lanes declare (required or optional), one QuickPick item each, with whether they are stored already. */
export async function pickSecret(
  registry: LaneRegistry,
  secrets: SecretStorageSource,
): Promise<{ laneId: string; secret: string }> {
  const items: SecretPick[] = [];
  for (const { manifest } of registry.list()) {
    const declared = [
      ...manifest.requiredSecrets.map((s) => ({ s, required: true })),
      ...manifest.optionalSecrets.map((s) => ({ s, required: false })),
    ];
    for (const { s, required: needed } of declared) {
      items.push({
        label: quickPickText(manifest.displayName),
        description: quickPickText(`${manifest.id} · ${s}${needed ? '' : ' (optional)'}`),
        detail: (await secrets.has(s)) ? 'stored: picking it replaces it' : 'not stored yet',
        laneId: manifest.id,
        secret: s,
      });
    }
  }
  if (!items.length) throw new Error('no registered lane declares an API key');
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: 'Set the API key of which lane?',
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  return required(picked);
}
