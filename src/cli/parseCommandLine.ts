import { parseArgs } from 'node:util';
import { type CommandSpec, GLOBAL_OPTIONS, formsFor, optionsOf } from './commandSpec';
import { type FlagValue, type OptionSpec, optionSyntax, parseOptionValue } from './optionSpec';
import { UsageError } from './usageError';

export interface CommandLine {
  readonly positionals: string[];
  readonly flags: Record<string, FlagValue>;
}

/**
 * The command's own options only: an option it does not declare (or one of
 * another of its subcommands) is a usage error listing the ones it takes, and
 * every value is checked and converted (numbers, durations, lists, enums).
 */
export function parseCommandLine(spec: CommandSpec, args: readonly string[]): CommandLine {
  const all = optionsOf(spec);
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: nodeOptions(all) });
  } catch (error) {
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message);
    if (unknown) throw unknownOption(spec, unknown[1]!, all);
    const valueless = /^Option '(-[^' ]+)/.exec((error as Error).message);
    const dash =
      valueless && /ambiguous/.test((error as Error).message)
        ? ` (a value that starts with a dash: ${valueless[1]}=-…)`
        : '';
    const problem = valueless ? `${valueless[1]} needs a value${dash}` : (error as Error).message.split(/\.\s/)[0];
    throw new UsageError(`${problem}; see \`switchyard help ${spec.name}\``, false);
  }
  const positionals = parsed.positionals;
  const sub = positionals[0];
  const allowed = optionsOf(spec, formsFor(spec, sub));
  const flags: Record<string, FlagValue> = {};
  for (const [name, raw] of Object.entries(parsed.values)) {
    const option = allowed[name];
    if (!option)
      throw unknownOption(spec, `--${name}`, allowed, spec.forms.some((f) => f.sub === sub) ? sub : undefined);
    flags[name] = convert(name, option, raw);
  }
  return { positionals, flags };
}

function convert(
  name: string,
  option: OptionSpec,
  raw: string | boolean | (string | boolean)[] | undefined,
): FlagValue {
  if (typeof raw === 'boolean' || raw === undefined || !option.value || option.value.kind === 'text')
    return raw as FlagValue;
  if (Array.isArray(raw)) return raw.map((r) => parseOptionValue(name, option, String(r))) as string[] | number[];
  return parseOptionValue(name, option, raw);
}

function unknownOption(
  spec: CommandSpec,
  given: string,
  allowed: Record<string, OptionSpec>,
  sub?: string,
): UsageError {
  const own = Object.entries(allowed).filter(([name]) => !(name in GLOBAL_OPTIONS));
  const list = [...own, ...Object.entries(GLOBAL_OPTIONS)].map(([name, o]) => optionSyntax(name, o)).join(', ');
  const what = sub ? `${spec.name} ${sub}` : spec.name;
  return new UsageError(
    `unknown option ${given} for ${what}; ${what} takes ${list} (see \`switchyard help ${spec.name}\`)`,
    false,
  );
}

function nodeOptions(options: Record<string, OptionSpec>) {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      {
        type: o.value ? ('string' as const) : ('boolean' as const),
        ...(o.multiple ? { multiple: true } : {}),
        ...(o.short ? { short: o.short } : {}),
      },
    ]),
  );
}
