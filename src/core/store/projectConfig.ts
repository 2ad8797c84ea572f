import { SETTING_DESCRIPTIONS } from './settingDescriptions';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { MergePolicy } from '../model/mergePolicyRules';
import { describeZodError } from '../model/zodIssues';
import { ProjectSettings } from './projectState';
import { FileDerived } from './fileStamp';
import { parseJsonText } from './readJsonConfig';
import { ensureStateDir, STATE_DIR } from './stateDir';
import { laneSettingsMapJsonSchema } from './laneSettingsSchema';
import type { LaneManifest } from '../model/laneManifest';
import { classed } from '../model/settingClass';

/** The team's project config, committed with the repository: `<root>/.switchyard/config.json`. */
export const CONFIG_FILE = 'config.json';
export const CONFIG_VERSION = 1;

/** Settings that are not team policy: routing is a recorded change in the state, the overrides are this machine's. */
export const NOT_IN_CONFIG = ['defaultLane', 'localOverrides'] as const;

/** The object inside `ProjectSettings` (behind its migration step): every setting added there appears here. */
export const SettingsObject = (
  ProjectSettings as unknown as { _zod: { def: { out: z.ZodObject<Record<string, z.ZodType>> } } }
)._zod.def.out;

const configShape = Object.fromEntries(
  Object.entries(SettingsObject.shape).filter(([k]) => !(NOT_IN_CONFIG as readonly string[]).includes(k)),
);

/** The settings a machine-local override may set (`config set --local`): the config's, without the merge policy. */
export const LocalSettings = z.object(configShape).strict();

/** The file's schema: every project setting (each optional: unset keys take the default), and the merge policy. */
export const ProjectConfig = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(CONFIG_VERSION),
    ...configShape,
    // Plain: a policy only restricts what a push may carry (without one the check is off), it cannot relax anything.
    mergePolicy: classed(MergePolicy.optional(), 'plain'),
  })
  .strict();

export type ConfigObject = Record<string, unknown>;

export function configPath(root: string): string {
  return join(root, STATE_DIR, CONFIG_FILE);
}

/** The config as it applies, and each part of the file that was ignored with why. */
export interface ConfigRead {
  /** The valid keys of the file (`undefined`: no file, or nothing of it could be read). */
  config: ConfigObject | undefined;
  /**
   * One message per ignored key (`key` absent: the whole file, when it is not a JSON object), naming the file and the
   * field.
   */
  ignored: { key?: string; message: string }[];
}

/** Each config file's content, read and validated again only when the file changed (FileDerived). */
const lastRead = new Map<string, FileDerived<ConfigRead>>();

/**
 * The committed config as written (only the keys it sets), valid keys only; `undefined` when there is no file. A key
 * that does not validate is ignored (its setting keeps the default) and listed by `projectConfigProblems`: one typo
 * does not stop the project. `strict` (for an edit that writes the file back): any problem is an error instead, so
 * nothing the user wrote is dropped; a key name (the merge guard's `mergePolicy`): a problem of that key or of the
 * whole file is an error, never a silent fall back to a default. A file whose stamp (inode, size, times) is unchanged
 * since the last read is not read again, and one whose bytes are unchanged is not validated again: the engine reads
 * the effective settings on every state read.
 */
export async function readProjectConfig(
  root: string,
  options: { strict?: true | string } = {},
): Promise<ConfigObject | undefined> {
  const read = await readConfig(root);
  const { strict } = options;
  const fatal = strict ? read.ignored.filter((i) => strict === true || i.key === undefined || i.key === strict) : [];
  if (fatal.length) throw new SwitchyardError('invalid-input', fatal.map((i) => i.message).join('; '));
  return structuredClone(read.config);
}

/** What of the committed config is ignored, one message each (none: the file is valid or missing). */
export async function projectConfigProblems(root: string): Promise<string[]> {
  return (await readConfig(root)).ignored.map((i) => i.message);
}

function readConfig(root: string): Promise<ConfigRead> {
  const file = configPath(root);
  let derived = lastRead.get(file);
  if (!derived) {
    derived = new FileDerived(
      file,
      () => loadConfigBytes(file),
      (bytes) => decodeConfig(file, bytes),
    );
    lastRead.set(file, derived);
  }
  return derived.get();
}

async function loadConfigBytes(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SwitchyardError('invalid-input', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

function decodeConfig(file: string, bytes: Buffer | undefined): ConfigRead {
  if (bytes === undefined) return { config: undefined, ignored: [] };
  let json: unknown;
  try {
    json = parseJsonText(bytes.toString('utf8'), file, '');
  } catch (error) {
    return { config: undefined, ignored: [{ message: `${(error as Error).message}; the whole file is ignored` }] };
  }
  const parsed = ProjectConfig.safeParse(json);
  if (parsed.success) return { config: json as ConfigObject, ignored: [] };
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return {
      config: undefined,
      ignored: [{ message: `${file}: ${describeZodError(parsed.error)}; the whole file is ignored` }],
    };
  // Key by key: each one is checked alone (with the version), the valid ones apply.
  const config: ConfigObject = { version: CONFIG_VERSION };
  const ignored: ConfigRead['ignored'] = [];
  for (const [key, value] of Object.entries(json)) {
    const one = ProjectConfig.safeParse({ version: CONFIG_VERSION, [key]: value });
    if (one.success) config[key] = value;
    else ignored.push({ key, message: `${file}: ${describeZodError(one.error)} (ignored: the default applies)` });
  }
  return { config, ignored };
}

/** Throws a permanent error naming the file and the field when `json` is not a valid config. */
export function checkProjectConfig(json: unknown, file: string): void {
  const parsed = ProjectConfig.safeParse(json);
  if (!parsed.success) throw new SwitchyardError('invalid-input', `${file}: ${describeZodError(parsed.error)}`);
}

/** Writes the config (validated first: nothing is written when it is invalid), atomically. */
export async function writeProjectConfig(root: string, config: ConfigObject): Promise<string> {
  const file = configPath(root);
  checkProjectConfig(config, file);
  await ensureStateDir(root);
  await writeFile(`${file}.tmp`, `${JSON.stringify(config, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
  return file;
}

/** The JSON schema of `.switchyard/config.json`, generated from the zod schema (the input side: defaults optional). */
export function projectConfigJsonSchema(laneManifests: readonly LaneManifest[] = []): Record<string, unknown> {
  const schema = {
    ...z.toJSONSchema(ProjectConfig, { io: 'input', unrepresentable: 'any', target: 'draft-7' }),
    title: 'Switchyard project config (.switchyard/config.json)',
  };
  // Hover texts: each described key's property schema gets its description.
  for (const [key, description] of Object.entries(SETTING_DESCRIPTIONS)) {
    let at: Record<string, unknown> | undefined = schema;
    for (const segment of key.split('.')) {
      const properties = at?.properties as Record<string, Record<string, unknown>> | undefined;
      at = properties?.[segment];
    }
    if (at) at.description = description;
  }
  // Completion and squiggles for the built-in lanes' settings under laneSettings.
  const lanes = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.laneSettings;
  if (lanes && laneManifests.length) Object.assign(lanes, laneSettingsMapJsonSchema(laneManifests));
  return schema;
}
