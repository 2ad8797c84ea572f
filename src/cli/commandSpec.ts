import type { CliContext } from './cliContext';
import { type OptionSpec, flag, text } from './optionSpec';

/** One way to call a command: a usage line of the generated help. */
export interface CommandForm {
  /** The subcommand this form starts with; its options are accepted only after it. */
  readonly sub?: string;
  /** Applies when no subcommand is given (`salvage` = `salvage list`). */
  readonly isDefault?: boolean;
  /** The positional arguments after the subcommand, as the usage shows them: `<run>`, `<lane> key=value…`. */
  readonly args?: string;
  readonly options?: Readonly<Record<string, OptionSpec>>;
  readonly help: string;
}

/** A CLI command: its usage lines (each with its options) and what runs it. */
export interface CommandSpec {
  readonly name: string;
  readonly forms: readonly CommandForm[];
  /** Opens the project: `--backend` and `--project-name` apply. */
  readonly opensProject?: boolean;
  readonly run: (ctx: CliContext) => Promise<number>;
}

/** Every command takes these. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  repo: text('DIR', 'the repository (default: the current folder)'),
  help: flag("this command's usage and options", 'h'),
};

/** Commands that open the project take these too. */
export const BACKEND_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  backend: {
    help: 'where the project lives (default: SWITCHYARD_BACKEND, else files)',
    placeholder: 'files|postgres',
    value: { kind: 'enum', values: ['files', 'postgres'] },
  },
  'project-name': text('NAME', 'the shared project name in PostgreSQL (default: SWITCHYARD_PROJECT)'),
};

/**
 * The forms a call uses: those of its subcommand, else the default ones (or all, when the command has no plain form).
 */
export function formsFor(spec: CommandSpec, first: string | undefined): readonly CommandForm[] {
  const bySub = spec.forms.filter((f) => f.sub !== undefined && f.sub === first);
  if (bySub.length) return bySub;
  const plain = spec.forms.filter((f) => f.sub === undefined || f.isDefault);
  return plain.length ? plain : spec.forms;
}

/** The options the given forms accept, the shared ones included. */
export function optionsOf(spec: CommandSpec, forms: readonly CommandForm[] = spec.forms): Record<string, OptionSpec> {
  const own = Object.assign({}, ...forms.map((f) => f.options ?? {})) as Record<string, OptionSpec>;
  return { ...own, ...(spec.opensProject ? BACKEND_OPTIONS : {}), ...GLOBAL_OPTIONS };
}
