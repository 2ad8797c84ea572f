import { z } from 'zod';

/**
 * What a setting's value can make Switchyard do, the one thing the trust rule looks at. In an untrusted workspace
 * only `plain` values from what the repository carries apply (a committed `.switchyard/config.json`, a state file that
 * came with the clone, workspace settings); the others are ignored and listed with the way to trust.
 *
 * - `executes`: a command line, an agent's arguments or settings, a hook, setup, a lane module.
 * - `routes-credential`: where a key or token goes (a base, API or remote URL, headers) or which of the user's
 *   variables reach an agent (`passEnv`, `env`).
 * - `reads-outside-worktree`: files brought into a run's worktree from elsewhere (`worktree.copy`, `worktree.link`).
 * - `weakens-protection`: prices and caps that bound spending, guard relaxations.
 * - `plain`: anything else (limits, names, timeouts, switches).
 */
export const SettingClass = z.enum([
  'executes',
  'routes-credential',
  'reads-outside-worktree',
  'weakens-protection',
  'plain',
]);
export type SettingClass = z.infer<typeof SettingClass>;

/** Why a class is withheld from an untrusted workspace, for messages. */
export const SETTING_CLASS_TEXT: Readonly<Record<SettingClass, string>> = {
  executes: 'would run a command',
  'routes-credential': 'would send a credential or your environment somewhere',
  'reads-outside-worktree': 'would bring files into the worktree',
  'weakens-protection': 'would weaken a price or cost cap',
  plain: 'plain',
};

/** The class of each project setting's schema, registered where the setting is defined (see `classed`). */
export const settingClasses = z.registry<{ settingClass: SettingClass }>();

/** `schema`, declared to be of class `settingClass`: its nested keys take the same class unless they declare one. */
export function classed<T extends z.ZodType>(schema: T, settingClass: SettingClass): T {
  settingClasses.add(schema, { settingClass });
  return schema;
}
