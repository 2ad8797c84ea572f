import type { z } from 'zod';
import { type SettingClass, settingClasses } from '../model/settingClass';
import { ProjectConfig } from './projectConfig';
import { defOf } from './settingKeys';

/** The class a lane's manifest gives one of its settings; `undefined` for an unknown lane or setting. */
export type LaneSettingClass = (laneId: string, setting: string) => SettingClass | undefined;

/** The class declared on `schema` or on one of the wrappers (default, optional, pipe) around its core. */
function declared(schema: z.ZodType): { settingClass?: SettingClass; core: z.ZodType } {
  let at = schema;
  let settingClass = settingClasses.get(at)?.settingClass;
  for (;;) {
    const def = defOf(at);
    const next =
      def.innerType ?? (def.type === 'pipe' ? (defOf(def.out!).type === 'transform' ? def.in : def.out) : undefined);
    if (!next) return settingClass ? { settingClass, core: at } : { core: at };
    at = next;
    settingClass ??= settingClasses.get(at)?.settingClass;
  }
}

/**
 * The class of a dotted project setting key (`worktree.setup`, `laneSettings.claude-code.extraArgs`,
 * `secretCommands.TOKEN`): the class declared nearest to it on its path (a record's entries and an object's fields
 * take their parent's unless they declare their own). A lane setting's class comes from the lane's manifest.
 * `undefined`: nothing declares one (an unknown lane's setting, a key the schema does not know), which the trust rule
 * treats like a setting that executes.
 */
export function settingClassOf(key: string, laneClass: LaneSettingClass): SettingClass | undefined {
  const segments = key.split('.');
  if (segments[0] === 'laneSettings') {
    if (segments.length < 3) return 'plain'; // an empty map or lane entry sets nothing
    return laneClass(segments[1]!, segments[2]!);
  }
  let schema: z.ZodType = ProjectConfig;
  let inherited: SettingClass | undefined;
  for (const segment of segments) {
    const { core } = declared(schema);
    const def = defOf(core);
    if (def.type === 'object' && def.shape && Object.hasOwn(def.shape, segment)) schema = def.shape[segment]!;
    else if (def.type === 'record' && def.valueType) schema = def.valueType;
    else return inherited;
    inherited = declared(schema).settingClass ?? inherited;
  }
  return inherited;
}
