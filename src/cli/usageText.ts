import { type CommandForm, type CommandSpec, optionsOf } from './commandSpec';
import { optionSyntax } from './optionSpec';

const HELP_COLUMN = 40;
const WIDTH = 112;

const HEADER = `switchyard — run coding agents (lanes) on tasks in fresh git worktrees

Usage: switchyard <command> [options]   (every command takes --repo DIR, default: the current folder)
       switchyard help <command>        (or <command> --help: the command's options)
Backend: files under .switchyard/ (default), or --backend postgres / SWITCHYARD_BACKEND=postgres with the
connection string in SWITCHYARD_DATABASE_URL and the shared project name in --project-name / SWITCHYARD_PROJECT`;

/** `lanes set <lane> key=value…`, `task add --title T [--spec S] [--file P]…`: the form as one line. */
export function formSyntax(name: string, form: CommandForm): string {
  const options = Object.entries(form.options ?? {}).map(([option, spec]) => {
    const syntax = optionSyntax(option, spec);
    return `${spec.required ? syntax : `[${syntax}]`}${spec.multiple ? '…' : ''}`;
  });
  return [name, form.sub, form.args, ...options].filter(Boolean).join(' ');
}

/** The whole usage: every command's forms with their help line. */
export function usageText(commands: readonly CommandSpec[]): string {
  const lines = commands.flatMap((c) => c.forms.map((f) => formLine(formSyntax(c.name, f), f.help)));
  return `${HEADER}\n\n${lines.join('\n')}`;
}

/** `switchyard help <command>`: its forms, then every option it takes with what it means. */
export function commandUsage(spec: CommandSpec): string {
  const forms = spec.forms.flatMap((f) => [
    `  switchyard ${wrap(formSyntax(spec.name, f), 13 + spec.name.length, WIDTH - 13).join('\n')}`,
    ...wrap(f.help, 0, WIDTH - 6).map((l) => `      ${l}`),
  ]);
  const options = Object.entries(optionsOf(spec)).map(([name, o]) => {
    const syntax = `${o.short ? `-${o.short}, ` : ''}${optionSyntax(name, o)}${o.multiple ? ' (repeatable)' : ''}`;
    return formLine(syntax, o.help, 2);
  });
  return [`Usage of switchyard ${spec.name}:`, ...forms, '', 'Options:', ...options].join('\n');
}

/** `  left   help`, the help on its own lines when the left side is too long; both sides wrap. */
function formLine(left: string, help: string, indent = 2): string {
  const pad = ' '.repeat(indent);
  const wrapped = wrap(left, indent + left.indexOf(' ') + 1);
  const helpLines = wrap(help, 0, WIDTH - HELP_COLUMN).map((l) => `${' '.repeat(HELP_COLUMN)}${l}`);
  if (wrapped.length === 1 && indent + wrapped[0]!.length < HELP_COLUMN - 1) {
    helpLines[0] = `${pad}${wrapped[0]!.padEnd(HELP_COLUMN - indent)}${helpLines[0]!.trimStart()}`;
    return helpLines.join('\n');
  }
  return [...wrapped.map((l, i) => (i === 0 ? pad + l : l)), ...helpLines].join('\n');
}

/** Splits at spaces outside brackets so that no line passes WIDTH; continuation lines are indented by `hang`. */
function wrap(text: string, hang: number, width = WIDTH): string[] {
  const words = text.match(/(?<!\S)\[[^\]]*\]\S*|\S+/g) ?? [];
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (line && (lines.length ? hang : 0) + next.length > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : ' '.repeat(hang) + l));
}
