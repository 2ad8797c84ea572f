import { statSync } from 'node:fs';
import { runCliProcess } from './runCliProcess';

/** How long a CLI's sign-in status may take (Claude Code answers in about half a second, from its own files). */
export const SIGN_IN_STATUS_TIMEOUT_MS = 2_500;
const MAX_STATUS_CHARS = 64 * 1024;

/** How a CLI that signs in says whether it is signed in, and how a person signs in. */
export interface CliSignIn {
  /** The lane's secret that the CLI takes instead of a sign-in (its API key): when it is set, nothing is asked. */
  readonly secret: string;
  /** Arguments of the status command (e.g. `auth status`): local, no model call. */
  readonly statusArgs: readonly string[];
  /** Arguments of the sign-in command a person runs in a terminal (e.g. `auth login`). */
  readonly loginArgs: readonly string[];
  /** Variables added for the status command only (e.g. to keep it off the network). */
  readonly statusEnv?: Readonly<Record<string, string>>;
  /** From the status command's exit code and output: signed in, not, or undefined when it does not say. */
  read(exitCode: number | undefined, stdout: string): boolean | undefined;
}

export type SignInAnswer = { signedIn: boolean } | { signedIn: undefined; why: string };

/**
 * Runs the CLI's status command (no shell: the binary and fixed arguments) with the lane's environment, in the home
 * directory (not a repository: a CLI may read its project settings from where it runs), bounded by
 * SIGN_IN_STATUS_TIMEOUT_MS and `signal`; the process group is ended either way.
 */
export async function askSignedIn(
  spec: CliSignIn,
  binary: string,
  env: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<SignInAnswer> {
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(SIGN_IN_STATUS_TIMEOUT_MS)]);
  let stdout = '';
  const end = await runCliProcess({
    binary,
    args: spec.statusArgs,
    cwd: homeDir(env.HOME),
    env: { ...env, ...spec.statusEnv },
    signal: bounded,
    onStdoutLine: (line) => {
      if (stdout.length < MAX_STATUS_CHARS) stdout += `${line}\n`;
    },
    onStderrLine: () => undefined,
  });
  const command = `${spec.statusArgs.join(' ')}`;
  if (end.spawnError) return { signedIn: undefined, why: `\`${command}\` did not start (${end.spawnError})` };
  if (end.aborted || bounded.aborted)
    return { signedIn: undefined, why: `\`${command}\` did not answer within ${SIGN_IN_STATUS_TIMEOUT_MS / 1000} s` };
  const signedIn = spec.read(end.exitCode, stdout + (end.cutLine ?? ''));
  if (signedIn === undefined)
    return {
      signedIn: undefined,
      why: `\`${command}\` ended with ${end.exitCode ?? end.signal} and an answer that does not say`,
    };
  return { signedIn };
}

/** `home` when it is a directory, else the root: a place that is no repository. */
function homeDir(home: string | undefined): string {
  try {
    if (home && statSync(home).isDirectory()) return home;
  } catch {
    // Not there: the root below.
  }
  return '/';
}
