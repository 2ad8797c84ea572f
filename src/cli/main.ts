import { errorMessage, isSwitchyardError } from '../core/errors';
import type { CliStdin } from './cliContext';
import { UsageError } from './usageError';
import { BACKEND_OPTIONS, GLOBAL_OPTIONS } from './commandSpec';
import { COMMANDS, findCommand } from './commandTable';
import { parseCommandLine } from './parseCommandLine';
import { terminalJson, terminalText } from './terminalText';
import { commandUsage, usageText } from './usageText';

/** Where the CLI runs: its working folder, its environment and its output (bin.ts passes the process's own). */
export interface CliIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** What `classify-error -` and `guard pre-push` read (bin.ts: the process's stdin); absent: nothing. */
  readonly stdin?: CliStdin;
  out(text: string): void;
  err(text: string): void;
}

/**
 * `switchyard <command> …` → the exit code: 0 ok, 1 error or a failed task, 2 usage. Reads nothing of the process but
 * `io`.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const at = commandIndex(argv);
  const name = at === -1 ? undefined : argv[at]!;
  const rest = at === -1 ? [...argv] : [...argv.slice(0, at), ...argv.slice(at + 1)];
  if (name === undefined) {
    io.out(usageText(COMMANDS));
    return rest.includes('--help') || rest.includes('-h') ? 0 : 2;
  }
  if (name === 'help')
    return help(
      rest.find((a) => !a.startsWith('-')),
      io,
    );
  const spec = findCommand(name);
  if (!spec) {
    io.err(`switchyard: unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
    return 2;
  }
  const closers: (() => Promise<void>)[] = [];
  let json = false;
  // Task titles, failure reasons, lane output and remote errors are untrusted: nothing reaches the terminal as control
  // bytes.
  const out = (text: string): void => io.out(json ? terminalJson(text) : terminalText(text));
  const err = (text: string): void => io.err(terminalText(text));
  try {
    const { positionals, flags } = parseCommandLine(spec, rest);
    if (flags.help) {
      io.out(commandUsage(spec));
      return 0;
    }
    json = Boolean(flags.json);
    return await spec.run({
      positionals,
      flags,
      cwd: io.cwd,
      env: io.env,
      ...(io.stdin ? { stdin: io.stdin } : {}),
      onExit: (fn) => closers.push(fn),
      out,
      err,
    });
  } catch (error) {
    if (error instanceof UsageError) {
      err(`switchyard ${name}: ${error.message}${error.showUsage ? `\n\n${commandUsage(spec)}` : ''}`);
      return 2;
    }
    // A stack trace only when asked for: what users see is the message.
    const debug = Boolean(io.env.SWITCHYARD_DEBUG);
    const plain = isSwitchyardError(error) || !(error instanceof Error);
    err(`switchyard ${name}: ${plain ? errorMessage(error) : debug ? error.stack : withDebugHint(error)}`);
    return 1;
  } finally {
    for (const close of closers) await close().catch(() => undefined);
  }
}

function help(name: string | undefined, io: CliIo): number {
  if (name === undefined) {
    io.out(usageText(COMMANDS));
    return 0;
  }
  const spec = findCommand(name);
  if (!spec) {
    io.err(`switchyard help: unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
    return 2;
  }
  io.out(commandUsage(spec));
  return 0;
}

/** The command is the first word that is not an option or the value of a shared one (`switchyard --repo x status`). */
function commandIndex(argv: readonly string[]): number {
  const valued = new Set(
    Object.entries({ ...GLOBAL_OPTIONS, ...BACKEND_OPTIONS })
      .filter(([, o]) => o.value)
      .map(([n]) => `--${n}`),
  );
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') return -1;
    if (!arg.startsWith('-')) return i;
    if (valued.has(arg)) i += 1;
  }
  return -1;
}

function withDebugHint(error: Error): string {
  return `${error.message} (set SWITCHYARD_DEBUG=1 for the stack trace)`;
}
