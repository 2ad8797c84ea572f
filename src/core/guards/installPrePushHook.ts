import {
  type Stats,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { SwitchyardError } from '../errors';
import { git } from '../git/gitExec';
import { linkedGitDir, readGitFile } from '../git/gitFiles';
import { CHAINED_HOOK, HOOK_MARKER, forwardingHookScript, prePushHookScript } from './prePushHookScript';
import { shellQuote } from '../text/shellQuote';

export interface InstallResult {
  /**
   * `repository`: the repository's hooks folder (core.hooksPath respected); `worktree`: a hooks folder for one linked
   * worktree only.
   */
  scope: 'repository' | 'worktree';
  hooksDir: string;
  hookPath: string;
  /** The hook that was there before and now runs after ours. */
  chained?: string;
  /** Ours was already there (it was rewritten with the current command). */
  alreadyInstalled: boolean;
}

/** Our hooks folder inside a linked worktree's private git folder. */
const WORKTREE_HOOKS = 'switchyard-hooks';
const PREVIOUS_FILE = '.switchyard-previous-hooks';

/**
 * Installs the pre-push guard for `worktreeDir`. In a repository's main
 * worktree it writes `<hooks>/pre-push` (the folder from
 * `git rev-parse --git-path hooks`, so core.hooksPath is respected),
 * renaming an existing hook to `pre-push.switchyard-chained`. In a linked
 * worktree (a run's worktree) it leaves the repository's hooks untouched:
 * it points that worktree's own `core.hooksPath` (per-worktree config) at a
 * private folder with our hook, chained to the repository's pre-push hook,
 * and forwarders for the repository's other hooks. Idempotent.
 * `cliCommand` is the command line that runs the Switchyard CLI, e.g.
 * `'/usr/bin/node' '/opt/switchyard/dist/cli.js'`.
 */
export async function installPrePushHook(worktreeDir: string, cliCommand: string): Promise<InstallResult> {
  const [gitDir, commonDir] = (
    await git(worktreeDir, ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'])
  ).stdout
    .trim()
    .split('\n');
  if (!gitDir || !commonDir) throw new SwitchyardError('git-failed', `cannot find the git folder of ${worktreeDir}`);
  if (resolve(gitDir) === resolve(commonDir)) {
    const hooks = await hooksPath(worktreeDir);
    await refuseTrackedHooks(worktreeDir, hooks);
    return installInto(hooks, cliCommand, 'repository');
  }
  return installForWorktree(worktreeDir, gitDir, cliCommand);
}

/** What installing into a run worktree needs from its repository: the same for every worktree of one drain. */
interface RepositoryHookFacts {
  /** The repository's hooks folder (core.hooksPath respected), where a worktree's hooks come from otherwise. */
  previous: string;
}

const repositoryFacts = new Map<string, { configMtimeMs: number; facts: Promise<RepositoryHookFacts> }>();
const factsInFlight = new Map<string, Promise<{ configMtimeMs: number; facts: Promise<RepositoryHookFacts> }>>();

/**
 * `installPrePushHook` for a worktree Switchyard has just created: the same result, with the repository's facts (its
 * hooks folder; per-worktree config enabled) asked of git once per repository while its config file is unchanged, and
 * the worktree's own `config.worktree` written directly, so a run costs no git process here. A worktree that is not a
 * fresh linked one (it has a `config.worktree` already, or its `.git` is not a `gitdir:` file) takes the general path.
 */
export async function installRunWorktreeHook(worktreeDir: string, cliCommand: string): Promise<InstallResult> {
  const gitDir = linkedGitDir(worktreeDir);
  const commonRel = gitDir ? readGitFile(join(gitDir, 'commondir')) : undefined;
  if (!gitDir || commonRel === undefined || existsSync(join(gitDir, 'config.worktree')) || /[\n"\\]/.test(gitDir))
    return installPrePushHook(worktreeDir, cliCommand);
  const commonDir = resolve(gitDir, commonRel.trim());
  const configMtimeMs = statSync(join(commonDir, 'config')).mtimeMs;
  let known = repositoryFacts.get(commonDir);
  if (!known || known.configMtimeMs !== configMtimeMs) {
    // Worktrees set up at the same time wait for one asking of git.
    let asking = factsInFlight.get(commonDir);
    if (!asking) {
      asking = (async () => {
        const facts = (async () => {
          const previous = await hooksPath(worktreeDir);
          await enableWorktreeConfig(worktreeDir);
          return { previous };
        })();
        facts.catch(() => repositoryFacts.delete(commonDir));
        // Enabling per-worktree config writes the config file: key the facts by its time after that.
        await facts;
        const entry = { configMtimeMs: statSync(join(commonDir, 'config')).mtimeMs, facts };
        repositoryFacts.set(commonDir, entry);
        return entry;
      })();
      const mine = asking;
      factsInFlight.set(commonDir, mine);
      void mine.then(
        () => factsInFlight.delete(commonDir),
        () => factsInFlight.delete(commonDir),
      );
    }
    known = await asking;
  }
  const { previous } = await known.facts;
  const ours = join(gitDir, WORKTREE_HOOKS);
  mkdirSync(ours, { recursive: true });
  writeFileSync(join(ours, PREVIOUS_FILE), `${previous}\n`);
  forwardHooks(previous, ours);
  writeFileSync(join(gitDir, 'config.worktree'), `[core]\n\thooksPath = "${ours}"\n`, { flag: 'wx' });
  return installInto(ours, cliCommand, 'worktree');
}

/**
 * A hooks folder git tracks (a husky `.husky/` set as core.hooksPath) is the team's: a hook written there would be
 * committed with this machine's paths, and the team's pre-push renamed. Refused, saying what to do instead.
 */
async function refuseTrackedHooks(dir: string, hooks: string): Promise<void> {
  const top = (await git(dir, ['rev-parse', '--show-toplevel'], [0, 128])).stdout.trim();
  if (!top) return;
  const rel = relative(realpathSync(top), existsSync(hooks) ? realpathSync(hooks) : hooks);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return;
  const tracked = (await git(top, ['ls-files', '-z', '--', rel], [0, 1, 128])).stdout;
  if (!tracked) return;
  const hook = `${rel}/pre-push`;
  throw new SwitchyardError(
    'invalid-input',
    `the hooks folder ${rel} (core.hooksPath) is tracked by git: switchyard guard install does not write into it (its hook would carry this machine's paths into commits). Add this line to the team's hook ${hook} instead: \`if command -v switchyard >/dev/null 2>&1; then switchyard guard pre-push "$@"; fi\` (the guard then runs for everyone who has switchyard installed)`,
  );
}

async function hooksPath(dir: string): Promise<string> {
  return (await git(dir, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'])).stdout.trim();
}

async function installInto(
  hooksDir: string,
  cliCommand: string,
  scope: InstallResult['scope'],
): Promise<InstallResult> {
  mkdirSync(hooksDir, { recursive: true });
  const hookPath = join(hooksDir, 'pre-push');
  const chainedPath = join(hooksDir, CHAINED_HOOK);
  const existing = readGitFile(hookPath);
  const alreadyInstalled = existing?.includes(HOOK_MARKER) ?? false;
  if (existing !== undefined && !alreadyInstalled) {
    if (existsSync(chainedPath)) {
      throw new SwitchyardError(
        'invalid-input',
        `${hookPath} is not Switchyard's and ${chainedPath} already exists; move one of them away, then install again`,
      );
    }
    renameSync(hookPath, chainedPath);
  }
  const temp = `${hookPath}.${process.pid}.tmp`;
  writeFileSync(temp, prePushHookScript(cliCommand), { mode: 0o755 });
  chmodSync(temp, 0o755);
  renameSync(temp, hookPath);
  return {
    scope,
    hooksDir,
    hookPath,
    chained: existsSync(chainedPath) ? chainedPath : undefined,
    alreadyInstalled,
  };
}

async function installForWorktree(worktreeDir: string, gitDir: string, cliCommand: string): Promise<InstallResult> {
  const ours = join(gitDir, WORKTREE_HOOKS);
  const configured = (
    await git(worktreeDir, ['config', '--file', join(gitDir, 'config.worktree'), '--get', 'core.hooksPath'], [0, 1])
  ).stdout.trim();
  if (configured !== ours) {
    // Before switching: where this worktree's hooks come from now (the repository's, core.hooksPath respected).
    const previous = await hooksPath(worktreeDir);
    mkdirSync(ours, { recursive: true });
    writeFileSync(join(ours, PREVIOUS_FILE), `${previous}\n`);
    forwardHooks(previous, ours);
    await enableWorktreeConfig(worktreeDir);
    await git(worktreeDir, ['config', '--worktree', 'core.hooksPath', ours]);
  }
  return installInto(ours, cliCommand, 'worktree');
}

/** Forwarders in `ours` for every hook in `previous`; its pre-push becomes our chained hook (unless it is ours too). */
function forwardHooks(previous: string, ours: string): void {
  let names: string[];
  try {
    names = readdirSync(previous);
  } catch {
    names = [];
  }
  for (const name of names) {
    if (name.endsWith('.sample') || name.endsWith('.tmp') || name === CHAINED_HOOK) continue;
    const target = join(previous, name);
    const info = statOrUndefined(target);
    if (!info?.isFile() || (info.mode & 0o111) === 0) continue;
    let forwardTo = target;
    if (name === 'pre-push' && (readGitFile(target) ?? '').includes(HOOK_MARKER)) {
      // The repository already runs our guard: chain to what it chains to, so the guard does not run twice.
      forwardTo = join(previous, CHAINED_HOOK);
      if (!existsSync(forwardTo)) continue;
    }
    writeFileSync(join(ours, name === 'pre-push' ? CHAINED_HOOK : name), forwardingHookScript(forwardTo), {
      mode: 0o755,
    });
  }
}

/**
 * Per-worktree config needs `extensions.worktreeConfig`. git's documentation
 * warns that `core.worktree` and `core.bare = true` must then move out of
 * the shared config, so a repository that sets them is refused.
 */
async function enableWorktreeConfig(dir: string): Promise<void> {
  // All three in one git process (git reads extensions.* from the repository's own config only); booleans read as
  // git reads them, keys as git prints them (lower case).
  const pattern = '^(extensions\\.worktreeconfig|core\\.(worktree|bare))$';
  const local = (await git(dir, ['config', '--local', '--get-regexp', pattern], [0, 1])).stdout;
  let enabled = false;
  let worktree = '';
  let bare = false;
  for (const line of local.split('\n')) {
    const [key, ...rest] = line.split(' ');
    const value = rest.join(' ');
    const set = rest.length === 0 || gitBoolean(value);
    if (key === 'extensions.worktreeconfig') enabled = set;
    else if (key === 'core.worktree') worktree = value;
    else if (key === 'core.bare') bare = set;
  }
  if (enabled) return;
  if (worktree || bare) {
    throw new SwitchyardError(
      'invalid-input',
      `cannot install a per-worktree hook in ${dir}: the repository sets ${worktree ? 'core.worktree' : 'core.bare = true'} in its shared config`,
    );
  }
  await git(dir, ['config', '--local', 'extensions.worktreeConfig', 'true']);
}

/** A config value as git reads a boolean (true/yes/on, or a non-zero number: true; a key without a value is too). */
function gitBoolean(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'yes' || v === 'on') return true;
  return /^[+-]?\d+$/.test(v) && Number(v) !== 0;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The command that runs this CLI, for the hook: this Node binary and the
 * bundled CLI this code is running in (`dist/cli.js`, symlinks resolved).
 * Undefined anywhere else (TypeScript sources, a test runner, the extension
 * host): the caller must then name the command.
 */
export function defaultCliCommand(script = runningBundle(), node = process.execPath): string | undefined {
  if (!script) return undefined;
  let path: string;
  try {
    path = realpathSync(isAbsolute(script) ? script : resolve(script));
  } catch {
    return undefined;
  }
  if (!/(?:^|\/)cli\.(?:c?js|mjs)$/.test(path)) return undefined;
  return `${shellQuote(node)} ${shellQuote(path)}`;
}

/**
 * The command the installed hook runs: the hook's own small bundle (`dist/hook.js`, the guards only, so the process
 * git waits for starts fast) beside the bundled CLI this code runs in, else the CLI itself (`defaultCliCommand`).
 * Either takes `guard pre-push <remote> <url>`, so hooks installed before `dist/hook.js` existed keep working.
 */
export function defaultHookCommand(script = runningBundle(), node = process.execPath): string | undefined {
  const cli = defaultCliCommand(script, node);
  if (!cli || !script) return cli;
  const hook = join(dirname(realpathSync(isAbsolute(script) ? script : resolve(script))), 'hook.js');
  return existsSync(hook) ? `${shellQuote(node)} ${shellQuote(hook)}` : cli;
}

/**
 * The CommonJS bundle file this code was bundled into, if any (`__filename` exists only there); for the CLI's bundle
 * (`dist/cliMain.js`), the loader beside it that runs it as the CLI (`dist/cli.js`).
 */
function runningBundle(): string | undefined {
  if (typeof __filename !== 'string') return undefined;
  const loader = join(dirname(__filename), 'cli.js');
  return basename(__filename) === 'cliMain.js' && existsSync(loader) ? loader : __filename;
}
