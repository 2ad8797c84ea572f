import * as vscode from 'vscode';
import { SETTINGS } from '../commandIds';
import { EDITOR_PROJECT_SETTING_IDS } from './editorProjectSettings';

function section(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SETTINGS.section, scope);
}

/** `switchyard.runOnSend`: whether Send to Lane starts the task at once (and Submit & Run comes first). */
export function runOnSend(scope?: vscode.ConfigurationScope): boolean {
  return section(scope).get<boolean>(SETTINGS.runOnSend, true) !== false;
}

export interface BackendSettings {
  /** `switchyard.backend` as written ("files" or "postgres"; anything else is the backend's clear error). */
  kind: string;
  /** `switchyard.project`: the project's name in the shared database; empty means the default. */
  project: string;
}

/**
 * `switchyard.backend` and `switchyard.project`. The connection string is never a setting (SecretStorage or
 * SWITCHYARD_DATABASE_URL).
 */
export function backendSettings(scope?: vscode.ConfigurationScope): BackendSettings {
  const config = section(scope);
  const text = (key: string, fallback: string): string => {
    const value = config.get<unknown>(key, fallback);
    if (value === undefined || value === null) return fallback;
    return typeof value === 'string' ? value.trim() : JSON.stringify(value);
  };
  return { kind: text(SETTINGS.backend, 'files') || 'files', project: text(SETTINGS.project, '') };
}

/** Settings the open project was opened with: changing one reopens it. */
const PROJECT_OPTIONS = [SETTINGS.backend, SETTINGS.project, ...EDITOR_PROJECT_SETTING_IDS] as const;

export function affectsProjectOptions(event: vscode.ConfigurationChangeEvent): boolean {
  return PROJECT_OPTIONS.some((key) => event.affectsConfiguration(`${SETTINGS.section}.${key}`));
}
