import { execFile, spawn, spawnSync } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { SwitchyardError, errorMessage } from '../errors';

/**
 * Runs git, the one way Switchyard does (guards, engine, worktrees, salvage):
 * no shell, no pager, no prompts, the C locale, and errors that name the
 * command and git's own words. Guards treat any of these errors as an
 * internal error (fail-safe), never as a verdict.
 */
const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };
const MAX_BUFFER = 512 * 1024 * 1024;

export interface GitResult {
  stdout: string;
  code: number;
}

/**
 * `git <args>` in `cwd`; exit codes in `okCodes` (default 0) resolve, others reject. `env` adds variables (e.g. an
 * identity).
 */
export function git(
  cwd: string,
  args: readonly string[],
  okCodes: readonly number[] = [0],
  env: Readonly<Record<string, string>> = {},
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env: { ...process.env, ...env, ...GIT_ENV }, maxBuffer: MAX_BUFFER, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (okCodes.includes(code)) resolve({ stdout, code });
        else reject(gitError(args, error, stderr));
      },
    );
  });
}

/** The output of `git <args>` in `cwd`; any exit code but 0 rejects. */
export async function gitOutput(cwd: string, args: readonly string[]): Promise<string> {
  return (await git(cwd, args)).stdout;
}

/** Streams `git <args>` line by line (without the newline) so large outputs are never held whole. */
export function gitLines(
  cwd: string,
  args: readonly string[],
  onLine: (line: string) => void,
  okCodes: readonly number[] = [0],
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
    let rest = '';
    let stderr = '';
    let failed: unknown;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (failed) return;
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      try {
        for (const line of parts) onLine(line);
      } catch (error) {
        failed = error;
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8_000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => reject(gitError(args, error, stderr)));
    child.on('close', (code) => {
      if (failed) return reject(failed);
      if (rest) {
        try {
          onLine(rest);
        } catch (error) {
          return reject(error);
        }
      }
      if (code !== null && okCodes.includes(code)) resolve(code);
      else reject(gitError(args, { message: `exit code ${code}` }, stderr));
    });
  });
}

/**
 * `git <args>` in `cwd`, synchronously (for a step inside a store transaction), output ignored: the exit code (-1 when
 * git could not start).
 */
export function gitSync(cwd: string, args: readonly string[]): number {
  const result = spawnSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
  return result.status ?? -1;
}

/**
 * A git command that failed (`git-failed`): the message names the command and git's last words; `stderr` holds all it
 * said.
 */
export class GitFailure extends SwitchyardError {
  constructor(
    message: string,
    readonly stderr: string,
    options: { cause?: unknown },
  ) {
    super('git-failed', message, options);
  }
}

/** All git said when `error` is a failed git command (its stderr), else the error's message. */
export function gitSaid(error: unknown): string {
  return (error instanceof GitFailure && error.stderr.trim()) || errorMessage(error);
}

function gitError(args: readonly string[], error: unknown, stderr: string): GitFailure {
  const e = error as NodeJS.ErrnoException | null;
  const why =
    e?.code === 'ENOENT'
      ? 'git was not found on PATH'
      : stderr.trim().split('\n').slice(-3).join(' / ') || e?.message || 'failed';
  return new GitFailure(`git ${args.slice(0, 3).join(' ')}${args.length > 3 ? ' …' : ''}: ${why}`, stderr, {
    cause: error,
  });
}

/**
 * The main working tree of the repository that contains `cwd`, even when
 * `cwd` is a linked worktree: guard verdicts and the policy file live there,
 * next to the project state.
 */
export async function mainWorktreeRoot(cwd: string): Promise<string> {
  const common = (await git(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).stdout.trim();
  if (basename(common) === '.git') return dirname(common);
  return (await git(cwd, ['rev-parse', '--show-toplevel'])).stdout.trim();
}

/** The top level of the worktree that contains `cwd`. */
export async function worktreeTop(cwd: string): Promise<string> {
  return (await git(cwd, ['rev-parse', '--show-toplevel'])).stdout.trim();
}

const ZERO = /^0+$/;

/** git's "no object" id (all zeros, 40 or 64 digits). */
export function isZeroSha(sha: string): boolean {
  return ZERO.test(sha);
}

/** A full object id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits. */
export const SHA_PATTERN = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
