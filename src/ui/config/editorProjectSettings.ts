import * as vscode from 'vscode';
import { z } from 'zod';
import { SETTINGS } from '../commandIds';

/** The project settings the Settings UI offers: the VS Code setting, its project key, and what it must be. */
const EDITOR_PROJECT_SETTINGS = [
  { setting: SETTINGS.reviewEnabled, key: 'review.enabled', schema: z.boolean() },
  { setting: SETTINGS.wipRunning, key: 'wip.RUNNING', schema: z.number().int().min(1) },
  { setting: SETTINGS.integrationMode, key: 'integration.mode', schema: z.enum(['local', 'push', 'pull-request']) },
  { setting: SETTINGS.integrationTargetBranch, key: 'integration.targetBranch', schema: z.string().trim().min(1) },
  // The Settings UI takes any number ≥ 1; the project's setting is whole seconds.
  {
    setting: SETTINGS.verifyTimeoutSeconds,
    key: 'verifyTimeoutSeconds',
    schema: z
      .number()
      .min(1)
      .max(86_400)
      .transform((seconds) => Math.round(seconds)),
  },
] as const;

/** The VS Code setting ids the project is opened with (changing one reopens it). */
export const EDITOR_PROJECT_SETTING_IDS = EDITOR_PROJECT_SETTINGS.map((s) => s.setting);

const LaneSettingsMap = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * The project settings the user set in VS Code (user, workspace or folder settings; the defaults do not count), by
 * dotted project key, for `Project.open({ editorSettings })`, which asks again at each read: the Settings UI's
 * settings, and each lane setting of `switchyard.lanes` as `laneSettings.<lane>.<setting>` (it wins over the
 * project's value of that setting alone). A value of the wrong type is left out: the project's own value applies and
 * the Settings UI already flags it (`switchyard.lanes` of the wrong shape: see `warnUnknownLanes`). `switchyard.lanes`
 * is read with `get`, so in an untrusted workspace VS Code leaves out the workspace's value (a restricted setting).
 */
export function editorProjectSettings(scope?: vscode.ConfigurationScope): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SETTINGS.section, scope);
  const overrides: Record<string, unknown> = editorLaneSettings(config);
  for (const { setting, key, schema } of EDITOR_PROJECT_SETTINGS) {
    const set = config.inspect<unknown>(setting);
    const given = set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
    const parsed = schema.safeParse(given);
    if (given !== undefined && parsed.success) overrides[key] = parsed.data;
  }
  return overrides;
}

/** `switchyard.lanes` by project key, one per lane setting (a name that holds a dot cannot be a key: left out). */
function editorLaneSettings(config: vscode.WorkspaceConfiguration): Record<string, unknown> {
  const lanes = LaneSettingsMap.safeParse(config.get<unknown>(SETTINGS.lanes, {}) ?? {});
  if (!lanes.success) return {};
  const keys: Record<string, unknown> = {};
  for (const [lane, settings] of Object.entries(lanes.data))
    for (const [name, value] of Object.entries(settings))
      if (!lane.includes('.') && !name.includes('.')) keys[`laneSettings.${lane}.${name}`] = value;
  return keys;
}
