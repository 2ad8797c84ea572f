import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LaneStatus } from '../../core/project';
import { SETTINGS } from '../commandIds';

/** VS Code's command that opens the Workspace Trust editor. */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';
export const MANAGE_TRUST = 'Manage Workspace Trust';

/** A lane's status as the UI shows it: `restricted` when its settings are there but ignored in Restricted Mode. */
export interface ShownLaneStatus extends LaneStatus {
  readonly restricted?: boolean;
}

const LANES_SETTING = `${SETTINGS.section}.${SETTINGS.lanes}`;

/**
 * In an untrusted folder (Restricted Mode) VS Code hides the workspace's value of `switchyard.lanes` (a restricted
 * setting: it names commands to run). A lane that is not ready for want of a setting, while the folder's settings do
 * set `switchyard.lanes`, is then not misconfigured: its setting is ignored because the folder is not trusted. Such a
 * status says so, and its fix is Manage Workspace Trust.
 */
export async function explainRestricted(statuses: readonly LaneStatus[]): Promise<ShownLaneStatus[]> {
  const where = await lanesIgnoredInRestrictedMode();
  if (!where.length) return [...statuses];
  return statuses.map((status) => {
    const { readiness, manifest } = status;
    if (readiness.ready || readiness.fix?.kind !== 'setting') return status;
    return {
      manifest,
      restricted: true,
      readiness: {
        ready: false,
        reason:
          `lane "${manifest.id}": its settings (${LANES_SETTING} in ${where.join(', ')}) are ignored because this ` +
          'folder is not trusted (Restricted Mode); trust the folder to use them: Manage Workspace Trust',
        fix: readiness.fix,
      },
    };
  });
}

/** In Restricted Mode, the workspace's settings files whose `switchyard.lanes` VS Code ignores; none when trusted. */
export async function lanesIgnoredInRestrictedMode(): Promise<string[]> {
  return vscode.workspace.isTrusted ? [] : workspaceFilesSettingLanes();
}

/**
 * The workspace's settings files that mention `switchyard.lanes` (relative paths). Only read, never applied: the
 * values stay ignored until the folder is trusted.
 */
async function workspaceFilesSettingLanes(): Promise<string[]> {
  const files = (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
    path: join(folder.uri.fsPath, '.vscode', 'settings.json'),
    shown: `${vscode.workspace.workspaceFolders!.length > 1 ? `${folder.name}/` : ''}.vscode/settings.json`,
  }));
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') files.push({ path: workspaceFile.fsPath, shown: workspaceFile.path });
  const found = await Promise.all(
    files.map(async ({ path, shown }) => {
      const text = await readFile(path, 'utf8').catch(() => '');
      return text.includes(`"${LANES_SETTING}"`) ? shown : undefined;
    }),
  );
  return found.filter((f): f is string => f !== undefined);
}
