import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LaneStatus } from '../../core/project/laneService';
import { notReady, readinessProblems } from '../../core/project/laneService';
import { SETTINGS } from '../commandIds';
import { laneIdsIn } from './laneIdsInSettings';

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
 * setting: it names commands to run). A lane that is not ready (also) for want of a setting, while the folder's
 * settings do set `switchyard.lanes`, is then not misconfigured: its settings are ignored because the folder is not
 * trusted. Such a status says so (its other problems may be gone once they apply), and its fix is Manage Workspace
 * Trust.
 */
export async function explainRestricted(statuses: readonly LaneStatus[]): Promise<ShownLaneStatus[]> {
  if (vscode.workspace.isTrusted) return [...statuses];
  const files = await workspaceLaneFiles();
  return statuses.map((status) => {
    const { readiness, manifest } = status;
    const settingFix = readinessProblems(readiness)
      .flatMap((p) => p.fixes ?? [])
      .find((f) => f.kind === 'setting');
    if (!settingFix) return status;
    const where = files.filter((f) => f.lanes.has(manifest.id)).map((f) => f.shown);
    if (!where.length) return status;
    return {
      manifest,
      restricted: true,
      readiness: notReady([
        {
          reason: `lane "${manifest.id}": its settings (${LANES_SETTING} in ${where.join(', ')}) are ignored because this folder is not trusted (Restricted Mode); trust the folder to use them: Manage Workspace Trust`,
          fixes: [settingFix],
        },
      ]),
    };
  });
}

/**
 * In Restricted Mode, the workspace's settings files whose `switchyard.lanes` sets `laneId` (VS Code ignores them);
 * none when trusted.
 */
export async function lanesIgnoredInRestrictedMode(laneId: string): Promise<string[]> {
  if (vscode.workspace.isTrusted) return [];
  return (await workspaceLaneFiles()).filter((f) => f.lanes.has(laneId)).map((f) => f.shown);
}

/**
 * The workspace's settings files (shown as relative paths) with the lane ids their `switchyard.lanes` sets. Only read,
 * never applied: the values stay ignored until the folder is trusted.
 */
async function workspaceLaneFiles(): Promise<{ shown: string; lanes: Set<string> }[]> {
  const files = (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
    path: join(folder.uri.fsPath, '.vscode', 'settings.json'),
    shown: `${vscode.workspace.workspaceFolders!.length > 1 ? `${folder.name}/` : ''}.vscode/settings.json`,
  }));
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') files.push({ path: workspaceFile.fsPath, shown: workspaceFile.path });
  const found = await Promise.all(
    files.map(async ({ path, shown }) => ({ shown, lanes: laneIdsIn(await readFile(path, 'utf8').catch(() => '')) })),
  );
  return found.filter((f) => f.lanes.size > 0);
}
