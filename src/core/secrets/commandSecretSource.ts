import { SwitchyardError } from '../errors';
import { awaitGroup } from '../process/awaitGroup';
import { type ProcessGroupExit, startProcessGroup } from '../process/startProcessGroup';
import type { SecretSource } from './secretSource';

const SECRET_COMMAND_TIMEOUT_MS = 30_000;
/** A secret is short: a command that prints more than this on either stream is stopped and fails. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Secrets printed by a configured command (project setting `secretCommands`,
 * e.g. `{ "ANTHROPIC_API_KEY": "pass show anthropic" }`). A command that fails
 * stops the run before the lane starts, with the command's own stderr; what it
 * printed on stdout (the secret, or part of it) is never in the error.
 */
export function commandSecretSource(commands: () => Promise<Record<string, string>>, cwd: string): SecretSource {
  return {
    name: 'secret command',
    async get(_lane, secret) {
      const command = (await commands())[secret];
      if (!command) return undefined;
      const result = await runSecretCommand(command, cwd);
      if (result.failed) {
        const stderr = result.stderr.trim();
        throw new SwitchyardError(
          'secret-unavailable',
          `the secret command for ${secret} (\`${command}\`) ${result.failed}${stderr ? `: ${stderr}` : ''}`,
        );
      }
      const value = result.stdout.trim();
      if (!value)
        throw new SwitchyardError(
          'secret-unavailable',
          `the secret command for ${secret} (\`${command}\`) printed nothing`,
        );
      return value;
    },
    howToSet: (_lane, secret) =>
      `configure a secret command for ${secret} (switchyard config set secretCommands.${secret} '<command>' --local)`,
  };
}

/**
 * Runs `command` in the shell, in its own process group behind the supervisor (whatever it leaves in its group ends
 * with it), with this process's environment and stdin empty; `failed` says why it did not succeed.
 */
async function runSecretCommand(
  command: string,
  cwd: string,
): Promise<{ stdout: string; stderr: string; failed?: string }> {
  const group = startProcessGroup({ file: command, shell: true, cwd, env: processEnv() });
  let tooLong = false;
  const collect = (stream: NodeJS.ReadableStream): (() => string) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= MAX_OUTPUT_BYTES) chunks.push(chunk);
      else if (!tooLong) {
        tooLong = true;
        group.stop();
      }
    });
    return () => Buffer.concat(chunks).toString('utf8');
  };
  const stdout = collect(group.stdout);
  const stderr = collect(group.stderr);
  const { exit, timedOut } = await awaitGroup(group, SECRET_COMMAND_TIMEOUT_MS);
  const failed = timedOut
    ? `timed out after ${SECRET_COMMAND_TIMEOUT_MS / 1000} s`
    : tooLong
      ? `printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB`
      : exitFailure(exit);
  return { stdout: stdout(), stderr: stderr(), ...(failed ? { failed } : {}) };
}

/** Why a command that ran by itself to its end failed; `undefined` for exit code 0. */
function exitFailure(exit: ProcessGroupExit): string | undefined {
  if (exit.spawnError !== undefined) return `could not start (${exit.spawnError})`;
  if (exit.exitCode === 0) return undefined;
  return exit.exitCode !== undefined
    ? `exited with code ${exit.exitCode}`
    : `was ended by ${exit.signal ?? 'a signal'}`;
}

/** This process's environment, as a command gets it. */
function processEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return env;
}
