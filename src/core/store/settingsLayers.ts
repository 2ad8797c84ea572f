import { isDeepStrictEqual } from 'node:util';
import type { SettingClass } from '../model/settingClass';
import { ProjectSettings } from './projectState';
import type { ConfigObject } from './projectConfig';
import { type LaneSettingClass, settingClassOf } from './settingClassOf';

/** Where an effective setting comes from, lowest first. */
export type SettingSource = 'default' | 'committed' | 'local' | 'editor';

export interface LayeredSettings {
  settings: ProjectSettings;
  /** Every leaf key of the effective settings (dotted) and the layer its value comes from. */
  sources: Map<string, SettingSource>;
  /** Settings the repository carries that were not applied because the workspace is not trusted. */
  ignored: IgnoredSetting[];
  /** Editor settings (VS Code) not applied because the settings schema refuses their value. */
  editorIgnored?: string[];
}

/** A setting the repository carries, left out because its class is not plain and the workspace is not trusted. */
export interface IgnoredSetting {
  key: string;
  /** `undefined`: nothing declares one (an unknown lane's setting), treated like a setting that executes. */
  settingClass: SettingClass | undefined;
  /** `committed`: `.switchyard/config.json`; `state`: a state file that came with the clone (tracked by git). */
  from: 'committed' | 'state';
  /** The value that was not applied (settings hold no secrets: a secret comes from a secret command or the env). */
  value: unknown;
}

/** How the settings are layered: whether the workspace is trusted, and what decides each setting's class. */
export interface LayerTrust {
  trusted: boolean;
  /** The class a lane gives one of its settings (from its manifest). */
  laneClass: LaneSettingClass;
  /**
   * The state's settings came with the repository (its state file is tracked by git): untrusted, they count as the
   * repository's, like the committed file's, rather than this machine's.
   */
  stateFromRepository?: boolean;
}

/**
 * The one trust rule: takes out of `settings` the leaves `keys` (values the repository carries, in an untrusted
 * workspace) whose setting's class is not `plain`; what was taken out.
 */
function withhold(
  settings: Record<string, unknown>,
  keys: readonly string[],
  laneClass: LaneSettingClass,
  from: IgnoredSetting['from'],
): IgnoredSetting[] {
  const ignored: IgnoredSetting[] = [];
  for (const key of keys) {
    const settingClass = settingClassOf(key, laneClass);
    if (settingClass === 'plain') continue;
    ignored.push({ key, settingClass, from, value: structuredClone(getPath(settings, key)) });
    deletePath(settings, key);
  }
  return ignored;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The dotted paths of a value's leaves (arrays, scalars and empty objects are leaves). */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (!isPlainObject(value) || (Object.keys(value).length === 0 && prefix)) return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k));
}

export function getPath(value: unknown, key: string): unknown {
  let at: unknown = value;
  for (const segment of key.split('.')) {
    if (!isPlainObject(at) || !Object.hasOwn(at, segment)) return undefined;
    at = at[segment];
  }
  return at;
}

export function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const segments = key.split('.');
  let at = target;
  for (const segment of segments.slice(0, -1)) {
    if (!isPlainObject(at[segment])) at[segment] = {};
    at = at[segment] as Record<string, unknown>;
  }
  at[segments[segments.length - 1]!] = value;
}

/** Deletes `key`, and the objects it leaves empty; whether it was there. */
export function deletePath(target: Record<string, unknown>, key: string): boolean {
  const segments = key.split('.');
  const parents: Record<string, unknown>[] = [];
  let at = target;
  for (const segment of segments.slice(0, -1)) {
    if (!isPlainObject(at[segment])) return false;
    parents.push(at);
    at = at[segment] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1]!;
  if (!Object.hasOwn(at, last)) return false;
  delete at[last];
  for (let i = parents.length - 1; i >= 0; i--) {
    const child = parents[i]![segments[i]!] as Record<string, unknown>;
    if (Object.keys(child).length) break;
    delete parents[i]![segments[i]!];
  }
  return true;
}

/** Whether `key` is `scope` or lies inside it. */
export function within(key: string, scope: string): boolean {
  return key === scope || key.startsWith(`${scope}.`);
}

const DEFAULTS = ProjectSettings.parse({});

/**
 * The leaves of the state's settings that override the committed file: those set with `config set --local` (listed
 * in `localOverrides`), and those that differ from the built-in default (set in the state before the config existed).
 */
export function localOverrideKeys(local: ProjectSettings): string[] {
  return leafPaths(local).filter(
    (key) =>
      key !== 'defaultLane' &&
      !within(key, 'localOverrides') &&
      (local.localOverrides.some((o) => within(key, o) || within(o, key)) ||
        !isDeepStrictEqual(getPath(local, key), getPath(DEFAULTS, key))),
  );
}

/** The committed file's settings (without `version`, `$schema` and the merge policy). */
function committedSettings(committed: ConfigObject | undefined): Record<string, unknown> {
  const { version: _v, $schema: _s, mergePolicy: _m, ...settings } = committed ?? {};
  return structuredClone(settings);
}

/**
 * The effective settings: built-in defaults < the committed `.switchyard/config.json` < this machine's overrides (the
 * state's settings). Untrusted, the values the repository carries whose class is not plain are left out (and listed in
 * `ignored`): the committed file's, and the state's when it came with the repository.
 */
export function layerSettings(
  local: ProjectSettings,
  committed: ConfigObject | undefined,
  trust: LayerTrust,
): LayeredSettings {
  const fromFile = committedSettings(committed);
  const ignored = trust.trusted ? [] : withhold(fromFile, leafPaths(fromFile), trust.laneClass, 'committed');
  let overrides = localOverrideKeys(local);
  if (!trust.trusted && trust.stateFromRepository) {
    const fromState = structuredClone(local) as unknown as Record<string, unknown>;
    const dropped = withhold(fromState, overrides, trust.laneClass, 'state');
    ignored.push(...dropped);
    overrides = overrides.filter((key) => !dropped.some((d) => d.key === key));
  }
  const merged = fromFile;
  for (const key of overrides) setPath(merged, key, structuredClone(getPath(local, key)));
  merged.defaultLane = local.defaultLane;
  merged.localOverrides = [...local.localOverrides];
  const settings = ProjectSettings.parse(merged);
  const committedKeys = leafPaths(committedSettings(committed)).filter(
    (k) => !ignored.some((i) => i.from === 'committed' && i.key === k),
  );
  const sources = new Map<string, SettingSource>();
  for (const key of leafPaths(settings)) {
    if (key === 'defaultLane' || within(key, 'localOverrides')) continue;
    const source: SettingSource = overrides.some((o) => within(key, o))
      ? 'local'
      : committedKeys.some((c) => within(key, c) || within(c, key))
        ? 'committed'
        : 'default';
    sources.set(key, source);
  }
  return { settings, sources, ignored };
}

/**
 * Writes back into the state's settings what a change did to the effective ones: each changed leaf becomes a local
 * override; the committed values it did not touch stay out of the state.
 */
export function applyLocalChange(local: ProjectSettings, before: ProjectSettings, after: ProjectSettings): void {
  const keys = new Set([...leafPaths(before), ...leafPaths(after)]);
  const target = local as unknown as Record<string, unknown>;
  for (const key of keys) {
    if (within(key, 'localOverrides')) continue;
    const value = getPath(after, key);
    if (isDeepStrictEqual(getPath(before, key), value)) continue;
    if (value === undefined) deletePath(target, key);
    else setPath(target, key, structuredClone(value));
    // An empty object that gained entries is not itself an override: its new leaves are.
    const deeper = [...keys].some((k) => k !== key && within(k, key));
    if (key !== 'defaultLane' && !deeper && !local.localOverrides.some((o) => within(key, o)))
      local.localOverrides.push(key);
  }
}

/**
 * The editor's settings on top of everything (VS Code's Settings UI: `switchyard.review.enabled`, …), by dotted
 * key. Only what the user set is given; the result is validated as a whole, and an override the schema refuses is
 * left out (and listed in `editorIgnored`) rather than breaking the project.
 */
export function applyEditorOverrides(
  layered: LayeredSettings,
  overrides: Readonly<Record<string, unknown>>,
): LayeredSettings {
  let settings = layered.settings;
  const sources = new Map(layered.sources);
  const editorIgnored: string[] = [];
  for (const [key, value] of Object.entries(overrides)) {
    const next = structuredClone(settings) as unknown as Record<string, unknown>;
    setPath(next, key, structuredClone(value));
    const parsed = ProjectSettings.safeParse(next);
    if (!parsed.success) {
      editorIgnored.push(key);
      continue;
    }
    settings = parsed.data;
    sources.set(key, 'editor');
  }
  return { settings, sources, ignored: layered.ignored, editorIgnored };
}
