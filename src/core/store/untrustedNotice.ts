import { join } from 'node:path';
import { SETTING_CLASS_TEXT } from '../model/settingClass';
import { configPath } from './projectConfig';
import type { IgnoredSetting } from './settingsLayers';
import { STATE_DIR } from './stateDir';

/** How to trust a workspace, the end of every message about what an untrusted one ignores. */
export const HOW_TO_TRUST = 'Trust it with `switchyard trust` (VS Code: Manage Workspace Trust).';

/** `a, b (would run a command); c (would send …)`: the keys grouped by what their class would do. */
function byClass(ignored: readonly IgnoredSetting[]): string {
  const groups = new Map<string, string[]>();
  for (const { key, settingClass } of ignored) {
    const why = settingClass ? SETTING_CLASS_TEXT[settingClass] : 'is not a documented setting of its lane';
    groups.set(why, [...(groups.get(why) ?? []), key]);
  }
  return [...groups].map(([why, keys]) => `${keys.join(', ')} (${why})`).join('; ');
}

/**
 * What an untrusted workspace withholds, as one message: the settings from the committed config and from a state
 * file that came with the repository, and that state's tasks (`held`: the tracked files of Switchyard's state);
 * nothing: undefined.
 */
export function untrustedNotice(
  root: string,
  ignored: readonly IgnoredSetting[],
  held: readonly string[],
): string | undefined {
  const parts: string[] = [];
  const committed = ignored.filter((i) => i.from === 'committed');
  const state = ignored.filter((i) => i.from === 'state');
  if (committed.length)
    parts.push(`ignored in ${configPath(root)} until this workspace is trusted: ${byClass(committed)}`);
  const stateFile = join(root, STATE_DIR, 'state.json');
  if (state.length)
    parts.push(`ignored in ${stateFile} (tracked by git: it came with the repository): ${byClass(state)}`);
  if (held.length)
    parts.push(
      `the tasks of ${stateFile} came with the repository (git tracks ${held.join(', ')}): none runs until this workspace is trusted, or until that state is removed (\`git rm -r ${held.join(' ')}\` deletes it)`,
    );
  return parts.length ? `${parts.join('. ')}. ${HOW_TO_TRUST}` : undefined;
}
