import { isSwitchyardError } from '../../core/errors';
import { SETTING_CLASS_TEXT } from '../../core/model/settingClass';
import { configPath } from '../../core/project/configFile';
import { getPath, within } from '../../core/project/settingsService';
import { type CliContext, openProject, requirePositional, UsageError } from '../cliContext';

const STATE_TEXT = 'state file tracked by git (it came with the repository)';
const IGNORED_SOURCE = { committed: 'committed', state: 'repository state' } as const;

const SOURCE_TEXT = {
  default: 'default',
  committed: 'committed .switchyard/config.json',
  local: 'local override',
  editor: 'editor setting',
};

/**
 * `switchyard config get [key] [--json] [--explain]`, `config set <key> <value> [--local]`, `config unset <key>
 * [--local]`: the project's settings, the committed file's and this machine's.
 */
export async function configCommand(ctx: CliContext): Promise<number> {
  try {
    return await config(ctx);
  } catch (error) {
    // A bad key or value is a usage error (exit 2); nothing was written.
    if (isSwitchyardError(error) && error.code === 'invalid-input') throw new UsageError(error.message, false);
    throw error;
  }
}

async function config(ctx: CliContext): Promise<number> {
  const sub = ctx.positionals[0];
  if (sub !== 'get' && sub !== 'set' && sub !== 'unset')
    throw new UsageError(`unknown config command "${sub ?? ''}": use config get, config set or config unset`);
  const project = await openProject(ctx);
  const local = ctx.flags.local === true;
  if (sub === 'set' || sub === 'unset') {
    const key = requirePositional(ctx, 1, 'the key (e.g. review.enabled)');
    const text = sub === 'set' ? requirePositional(ctx, 2, `the value for ${key}`) : undefined;
    const { file, value } = await project.settings.edit({ key, ...(text !== undefined ? { text } : {}), local });
    ctx.out(sub === 'set' ? `${key} = ${JSON.stringify(value)} in ${file}` : `${key} unset in ${file}`);
    // Stored, but not applied: said now, not at the next command.
    const ignored = sub === 'set' ? await project.settings.ignoredNotice(key) : undefined;
    if (ignored) ctx.err(`warning: ${ignored}`);
    return 0;
  }
  const key = ctx.positionals[1];
  if (key !== undefined) project.settings.checkKey(key);
  const layers = await project.settings.layers();
  const picked = [...layers.sources].filter(([k]) => key === undefined || k === key || k.startsWith(`${key}.`));
  const ignored = layers.ignored.filter((i) => key === undefined || within(i.key, key) || within(key, i.key));
  const value = key === undefined ? withoutInternal(layers.settings) : getPath(layers.settings, key);
  if (value === undefined && !ctx.flags.explain) {
    // Set nowhere and no default (a record's entry, an optional field): JSON prints nothing.
    if (ctx.flags.json !== true) ctx.out(`${key} is not set`);
  } else if (ctx.flags.json === true) {
    const out = ctx.flags.explain
      ? Object.fromEntries([
          ...picked.map(([k, source]) => [k, { value: getPath(layers.settings, k), source }]),
          ...ignored.map((i) => [
            `${i.key} (ignored)`,
            { value: i.value, source: IGNORED_SOURCE[i.from], ignored: i.settingClass ?? 'unclassified' },
          ]),
        ])
      : value;
    ctx.out(JSON.stringify(out, null, 2));
  } else if (ctx.flags.explain) {
    for (const [k, source] of picked)
      ctx.out(`${k} = ${JSON.stringify(getPath(layers.settings, k))}  (${SOURCE_TEXT[source]})`);
    for (const i of ignored) {
      const from = i.from === 'committed' ? SOURCE_TEXT.committed : STATE_TEXT;
      const why = i.settingClass ? `${i.settingClass}: ${SETTING_CLASS_TEXT[i.settingClass]}` : 'unclassified';
      ctx.out(`${i.key} = ${JSON.stringify(i.value)}  (ignored: ${from}, ${why}; untrusted: \`switchyard trust\`)`);
    }
    ctx.out(
      `precedence: default < committed ${configPath(project.root)} < local override (the state) < VS Code settings`,
    );
  } else ctx.out(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  const deprecated = await project.settings.deprecationNotice();
  if (deprecated) ctx.err(`warning: ${deprecated}`);
  return 0;
}

function withoutInternal(settings: Record<string, unknown>): Record<string, unknown> {
  const { defaultLane: _d, localOverrides: _l, ...rest } = settings;
  return rest;
}
