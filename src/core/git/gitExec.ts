import { execFile, spawn } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { SwitchyardError, errorMessage } from '../errors';

/**
 * Runs git, the one way Switchyard does (guards, engine, worktrees, salvage):
 * no shell, no pager, no prompts, the C locale, and errors that name the
 * command and git's own words. Guards treat any of these errors as an
 * internal error (fail-safe), never as a verdict.
 */
export const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };
const MAX_BUFFER = 512 * 1024 * 1024;

export interface GitResult {
  stdout: string;
  code: number;
}

/** How a git process started by a runner ended: exactly one of these, exactly once. */
export type GitRunEnd =
  | { kind: 'exit'; code: number | null; signal: string | null }
  /** git could not be spawned (`code`: the errno name, ENOENT when it is not on PATH). */
  | { kind: 'spawn-error'; message: string; code?: string }
  /** The runner could not take it and nothing ran: it is run directly instead. */
  | { kind: 'not-run'; reason: string }
  /** The runner lost it after it started: git may have run. */
  | { kind: 'lost'; reason: string };

/** What a runner is told about one git process. */
export interface GitRunEvents {
  output(stream: 'out' | 'err', data: Buffer): void;
  ended(end: GitRunEnd): void;
}

/**
 * Starts `git <args>` somewhere else than this process (e.g. a helper process that forks for it), with exactly this
 * `cwd` and whole `env`, stdin open and empty; `undefined` when it cannot right now (git then runs directly). `kill`
 * sends git SIGTERM.
 */
export type GitRunner = (
  run: { args: readonly string[]; cwd: string; env: Record<string, string> },
  events: GitRunEvents,
) => { kill(): void } | undefined;

let runner: GitRunner | undefined;

/** Installs how `git()`, `gitOutput` and `gitLines` start git (none: this process spawns it); returns the previous. */
export function useGitRunner(next: GitRunner | undefined): GitRunner | undefined {
  const previous = runner;
  runner = next;
  return previous;
}

/** git's whole environment: `base` (default this process's), then `env`, then GIT_ENV. */
function gitEnv(
  env: Readonly<Record<string, string>>,
  base: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const all: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...env, ...GIT_ENV })) if (v !== undefined) all[k] = v;
  return all;
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
  if (runner) {
    const viaRunner = gitThroughRunner(runner, cwd, args, okCodes, env);
    if (viaRunner !== undefined) return viaRunner;
  }
  return gitDirect(cwd, args, okCodes, env);
}

function gitDirect(
  cwd: string,
  args: readonly string[],
  okCodes: readonly number[],
  env: Readonly<Record<string, string>>,
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

/**
 * `git()` through `run`, with execFile's outcomes: its errors' codes and messages (exit code, signal, spawn error,
 * maxBuffer), stdout decoded as UTF-8 whole; `undefined` when the runner declined.
 */
function gitThroughRunner(
  run: GitRunner,
  cwd: string,
  args: readonly string[],
  okCodes: readonly number[],
  env: Readonly<Record<string, string>>,
): Promise<GitResult> | undefined {
  let settle!: (result: GitResult) => void;
  let fail!: (error: unknown) => void;
  const outcome = new Promise<GitResult>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const size = { out: 0, err: 0 };
  let overflow: Error | undefined;
  const handle = run(
    { args, cwd, env: gitEnv(env) },
    {
      output: (stream, data) => {
        if (overflow) return;
        size[stream] += data.length;
        (stream === 'out' ? out : err).push(data);
        if (size[stream] > MAX_BUFFER) {
          overflow = Object.assign(
            new RangeError(`${stream === 'out' ? 'stdout' : 'stderr'} maxBuffer length exceeded`),
            {
              code: 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
            },
          );
          handle?.kill();
        }
      },
      ended: (end) => {
        const stderr = Buffer.concat(err).toString('utf8');
        if (end.kind === 'not-run') return void gitDirect(cwd, args, okCodes, env).then(settle, fail);
        if (end.kind === 'lost') return fail(lostGit(args, end.reason, stderr));
        const stdout = Buffer.concat(out).toString('utf8');
        let error: (Error & { code?: unknown; signal?: unknown }) | undefined = overflow;
        if (!error && end.kind === 'spawn-error') error = Object.assign(new Error(end.message), { code: end.code });
        if (!error && end.kind === 'exit' && (end.code !== 0 || end.signal !== null))
          error = Object.assign(new Error(`Command failed: ${['git', ...args].join(' ')}\n${stderr}`), {
            code: end.code,
            signal: end.signal,
            killed: false,
          });
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (okCodes.includes(code)) settle({ stdout, code });
        else fail(gitError(args, error, stderr));
      },
    },
  );
  return handle ? outcome : undefined;
}

/** The caller aborted git (`GitLinesOptions.signal`): it was stopped, or never started. */
function canceledGit(args: readonly string[], stderr: string, signal: AbortSignal): GitFailure {
  return new GitFailure(`${gitCommand(args)}: canceled`, stderr, { cause: signal.reason });
}

/** The runner lost git after it started it: transient, and git may have run. */
function lostGit(args: readonly string[], reason: string, stderr: string): GitFailure {
  return new GitFailure(`${gitCommand(args)}: ${reason}; git may have run`, stderr, {});
}

/** The output of `git <args>` in `cwd`; any exit code but 0 rejects. */
export async function gitOutput(cwd: string, args: readonly string[]): Promise<string> {
  return (await git(cwd, args)).stdout;
}

/** What else `gitLines` can be told. */
export interface GitLinesOptions {
  /** The environment git starts from instead of this process's (GIT_ENV still over it): e.g. a lane's allowlist. */
  baseEnv?: Readonly<Record<string, string>>;
  /** Aborting it stops git (SIGTERM) and rejects with a `git-failed` error that says so. */
  signal?: AbortSignal;
}

/** Streams `git <args>` line by line (without the newline) so large outputs are never held whole. */
export function gitLines(
  cwd: string,
  args: readonly string[],
  onLine: (line: string) => void,
  okCodes: readonly number[] = [0],
  options: GitLinesOptions = {},
): Promise<number> {
  if (options.signal?.aborted) return Promise.reject(canceledGit(args, '', options.signal));
  if (runner) {
    const viaRunner = gitLinesThroughRunner(runner, cwd, args, onLine, okCodes, options);
    if (viaRunner !== undefined) return viaRunner;
  }
  return gitLinesDirect(cwd, args, onLine, okCodes, options);
}

function gitLinesDirect(
  cwd: string,
  args: readonly string[],
  onLine: (line: string) => void,
  okCodes: readonly number[],
  { baseEnv, signal }: GitLinesOptions,
): Promise<number> {
  if (signal?.aborted) return Promise.reject(canceledGit(args, '', signal));
  return new Promise((resolve, reject) => {
    const env = gitEnv({}, baseEnv);
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let rest = '';
    let stderr = '';
    let failed: unknown;
    const stop = (): boolean => child.kill();
    signal?.addEventListener('abort', stop, { once: true });
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
    child.on('error', (error) => {
      signal?.removeEventListener('abort', stop);
      reject(gitError(args, error, stderr));
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (failed) return reject(failed);
      if (signal?.aborted) return reject(canceledGit(args, stderr, signal));
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

/** `gitLines` through `run`, with the same outcomes; `undefined` when the runner declined. */
function gitLinesThroughRunner(
  run: GitRunner,
  cwd: string,
  args: readonly string[],
  onLine: (line: string) => void,
  okCodes: readonly number[],
  options: GitLinesOptions,
): Promise<number> | undefined {
  const { baseEnv, signal } = options;
  let settle!: (result: number) => void;
  let fail!: (error: unknown) => void;
  const outcome = new Promise<number>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let stderr = '';
  let failed: unknown;
  let over = false;
  const stop = (): void => handle?.kill();
  const handle = run(
    { args, cwd, env: gitEnv({}, baseEnv) },
    {
      output: (stream, data) => {
        if (stream === 'err') {
          if (stderr.length < 8_000) stderr += data.toString('utf8');
          return;
        }
        if (failed) return;
        const parts = (rest + decoder.write(data)).split('\n');
        rest = parts.pop() ?? '';
        try {
          for (const line of parts) onLine(line);
        } catch (error) {
          failed = error;
          handle?.kill();
        }
      },
      ended: (end) => {
        over = true;
        signal?.removeEventListener('abort', stop);
        if (end.kind === 'not-run') return void gitLinesDirect(cwd, args, onLine, okCodes, options).then(settle, fail);
        if (end.kind === 'lost') return fail(lostGit(args, end.reason, stderr));
        if (end.kind === 'spawn-error')
          return fail(gitError(args, Object.assign(new Error(end.message), { code: end.code }), stderr));
        if (failed) return fail(failed);
        if (signal?.aborted) return fail(canceledGit(args, stderr, signal));
        rest += decoder.end();
        if (rest) {
          try {
            onLine(rest);
          } catch (error) {
            return fail(error);
          }
        }
        if (end.code !== null && okCodes.includes(end.code)) settle(end.code);
        else fail(gitError(args, { message: `exit code ${end.code}` }, stderr));
      },
    },
  );
  if (!handle) return undefined;
  if (!over) signal?.addEventListener('abort', stop, { once: true });
  return outcome;
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
  return new GitFailure(`${gitCommand(args)}: ${why}`, stderr, { cause: error });
}

function gitCommand(args: readonly string[]): string {
  return `git ${args.slice(0, 3).join(' ')}${args.length > 3 ? ' …' : ''}`;
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
