import { SwitchyardError } from '../errors';
import type { SecretSource } from './secretSource';

const SECRET_COMMAND_TIMEOUT_MS = 30_000;

/**
 * Secrets printed by a configured command (project setting `secretCommands`,
 * e.g. `{ "ANTHROPIC_API_KEY": "pass show anthropic" }`). A command that fails
 * stops the run before the lane starts, with the command's own stderr.
 */
export function commandSecretSource(commands: () => Promise<Record<string, string>>, cwd: string): SecretSource {
  return {
    name: 'secret command',
    async get(_lane, secret) {
      const command = (await commands())[secret];
      if (!command) return undefined;
      const { execa } = await import('execa');
      const result = await execa(command, {
        cwd,
        shell: true,
        reject: false,
        timeout: SECRET_COMMAND_TIMEOUT_MS,
        stdin: 'ignore',
      });
      if (result.exitCode !== 0 || result.timedOut) {
        const why = result.timedOut
          ? `timed out after ${SECRET_COMMAND_TIMEOUT_MS / 1000} s`
          : `exited with code ${result.exitCode}`;
        const stderr = String(result.stderr ?? '').trim();
        throw new SwitchyardError(
          'secret-unavailable',
          `the secret command for ${secret} (\`${command}\`) ${why}${stderr ? `: ${stderr}` : ''}`,
        );
      }
      const value = String(result.stdout ?? '').trim();
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
