import type { SettingClass } from '../../core/model/settingClass';
import type { SETTINGS } from '../commandIds';

type EditorSetting = Exclude<(typeof SETTINGS)[keyof typeof SETTINGS], typeof SETTINGS.section>;

/**
 * The class of every `switchyard.*` editor setting (see SettingClass). The ones that are not plain are package.json's
 * `capabilities.untrustedWorkspaces.restrictedConfigurations`: in Restricted Mode VS Code ignores their workspace
 * values (a unit test keeps the two lists the same).
 */
export const EDITOR_SETTING_CLASSES: Readonly<Record<EditorSetting, SettingClass>> = {
  // Lane settings by lane id: command lines, agent arguments, base URLs.
  lanes: 'executes',
  runOnSend: 'plain',
  verifyTimeoutSeconds: 'plain',
  // Which database (with the connection stored on this machine) and which project in it get this workspace's tasks.
  backend: 'routes-credential',
  project: 'routes-credential',
  'review.enabled': 'plain',
  'wip.running': 'plain',
  'integration.mode': 'plain',
  'integration.targetBranch': 'plain',
  'tree.finishedShown': 'plain',
};
