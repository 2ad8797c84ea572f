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

const HINT = '; fix the file or run `switchyard config get` after';

/** Each config file's validated content, read and validated again only when the file changed (FileDerived). */
const lastRead = new Map<string, FileDerived<ConfigObject | undefined>>();

/**
 * The committed config as written (only the keys it sets), validated; `undefined` when there is no file. A file whose
 * stamp (inode, size, times) is unchanged since the last read is not read again, and one whose bytes are unchanged is
 * not validated again: the engine reads the effective settings on every state read.
 */
export async function readProjectConfig(root: string): Promise<ConfigObject | undefined> {
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
  return structuredClone(await derived.get());
}

async function loadConfigBytes(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SwitchyardError('invalid-input', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

function decodeConfig(file: string, bytes: Buffer | undefined): ConfigObject | undefined {
  if (bytes === undefined) return undefined;
  const json = parseJsonText(bytes.toString('utf8'), file, HINT);
  checkProjectConfig(json, file);
  return json as ConfigObject;
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
