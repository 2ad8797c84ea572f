const COMMAND_SHOWN = 200;

/**
 * Why a process could not be started, in one line: the spawn error first
 * (E2BIG said in words: the arguments and environment are larger than the
 * system allows), then the command, cut to its first 200 characters. The
 * reason names E2BIG early, where the error classifier (which reads the
 * first 16,000 characters) finds it and treats it as permanent, so the same
 * input is not retried as if it were a transient failure.
 */
export function spawnFailureReason(command: string, code: unknown, message: string | undefined): string {
  const what = message?.split('\n').pop()?.trim() || (typeof code === 'string' ? code : 'unknown error');
  const why =
    code === 'E2BIG'
      ? `${what}: the command line and environment are larger than the system allows (Linux: 128 KiB per argument or variable, ARG_MAX in all); shorten the setting or the input, a retry cannot help`
      : what;
  const shown =
    command.length > COMMAND_SHOWN
      ? `${command.slice(0, COMMAND_SHOWN)}…\` (${command.length} characters)`
      : `${command}\``;
  return `could not start the command (${why}): \`${shown}`;
}
