import { SwitchyardError } from '../../errors';
import { describeZodError } from '../../model/zodIssues';
import {
  CONFIG_VERSION,
  type ConfigObject,
  LocalSettings,
  ProjectConfig,
  configPath,
  readProjectConfig,
  writeProjectConfig,
} from '../../store/projectConfig';
import { ProjectSettings } from '../../store/projectState';
import { deletePath, getPath, setPath } from '../../store/settingsLayers';
import { expectedType, parseKeyValue, type ResolvedKey, resolveKey } from '../../store/settingKeys';
import type { LayeredStateStore } from '../../backend/layeredStateStore';

export interface ConfigEdit {
  key: string;
  /** The value as typed: JSON when it parses and the key is not text. */
  text?: string;
  /** The machine-local override (the state's settings) instead of the committed file. */
  local?: boolean;
}

function badValue(resolved: ResolvedKey, detail: string): SwitchyardError {
  return new SwitchyardError(
    'invalid-input',
    `invalid value for ${resolved.key}: expected ${expectedType(resolved.schema)} (${detail}); nothing was written`,
  );
}

/** `config set` / `config unset` on the committed file or the local override; an error writes nothing. */
export async function editProjectConfig(
  root: string,
  store: LayeredStateStore,
  edit: ConfigEdit,
): Promise<{ file: string; value: unknown }> {
  const resolved = resolveKey(edit.key, edit.local ? LocalSettings : ProjectConfig);
  const value = edit.text === undefined ? undefined : parseKeyValue(resolved, edit.text);
  if (edit.local) {
    await store.updateLocal((local) => {
      const draft = structuredClone(local) as unknown as Record<string, unknown>;
      const overrides = local.localOverrides.filter((o) => o !== edit.key && !o.startsWith(`${edit.key}.`));
      if (value === undefined) deletePath(draft, edit.key);
      else setPath(draft, edit.key, value);
      draft.localOverrides = value === undefined ? overrides : [...overrides, edit.key];
      const parsed = ProjectSettings.safeParse(draft);
      if (!parsed.success) throw badValue(resolved, describeZodError(parsed.error));
      Object.assign(local, parsed.data);
    });
    return { file: 'the state (machine-local)', value };
  }
  const current: ConfigObject = structuredClone(
    (await readProjectConfig(root, { strict: true })) ?? { version: CONFIG_VERSION },
  );
  if (value === undefined) {
    if (getPath(current, edit.key) === undefined) return { file: configPath(root), value };
    deletePath(current, edit.key);
  } else setPath(current, edit.key, value);
  const parsed = ProjectConfig.safeParse(current);
  if (!parsed.success) throw badValue(resolved, describeZodError(parsed.error));
  return { file: await writeProjectConfig(root, current), value };
}
