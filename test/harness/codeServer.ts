import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../helpers/freePort';
import { registerCleanup } from './cleanup';
import { MARKER_VAR, killAll, killAllSync } from './processes';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER_BIN = join(REPO_ROOT, '.vscode-test', 'cs', 'node_modules', '.bin', 'code-server');

/**
 * User settings of every test instance: no welcome page, no updates, no telemetry, no trust prompt, nothing fetched.
 */
export const TEST_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  // Keep the workbench from reaching out (the tests run offline, loopback only).
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'workbench.enableExperiments': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'npm.fetchOnlinePackageInfo': false,
  'git.autofetch': false,
  'typescript.disableAutomaticTypeAcquisition': true,
};

export interface CodeServer {
  readonly port: number;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly runDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly logFile: string;
  /** The URI the web client uses for a path on the server's disk. */
  remoteUri(absPath: string): string;
  /** `code-server --install-extension <vsix>` into this instance's extensions dir. */
  installExtension(vsixPath: string): Promise<void>;
  /** `code-server --uninstall-extension <publisher.name>` from this instance's extensions dir. */
  uninstallExtension(id: string): Promise<void>;
  /** Kills the whole process group (and anything that left it), waits until it is gone, removes the run dir. */
  stop(options?: { saveLogTo?: string }): Promise<void>;
}

export interface StartOptions {
  /** Settings merged over TEST_SETTINGS. */
  settings?: Record<string, unknown>;
  /**
   * Workspace Trust on (default off): a folder opens in Restricted Mode, without the startup prompt, until trusted.
   */
  workspaceTrust?: boolean;
  startTimeoutMs?: number;
}

/** Starts an isolated code-server on a free loopback port and waits for /healthz. */
export async function startCodeServer(options: StartOptions = {}): Promise<CodeServer> {
  assertInstalled();
  const runDir = await mkdtemp(join(tmpdir(), 'switchyard-cs-'));
  const dirs = {
    userDataDir: join(runDir, 'ud'),
    extensionsDir: join(runDir, 'ext'),
    tmp: join(runDir, 'tmp'),
    runtime: join(runDir, 'run'),
  };
  for (const dir of [
    join(dirs.userDataDir, 'User'),
    dirs.extensionsDir,
    dirs.tmp,
    join(runDir, 'cfg'),
    join(runDir, 'data'),
    join(runDir, 'cache'),
    join(runDir, 'state'),
  ]) {
    mkdirSync(dir, { recursive: true });
  }
  mkdirSync(dirs.runtime, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(dirs.userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        ...TEST_SETTINGS,
        ...(options.workspaceTrust
          ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
          : {}),
        ...options.settings,
      },
      null,
      2,
    ),
  );

  const env = serverEnv(runDir, dirs.tmp, dirs.runtime);
  const dirArgs = ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
  const needles = [`${MARKER_VAR}=${runDir}`, `TMPDIR=${dirs.tmp}`];
  const logFile = join(runDir, 'code-server.log');
  const port = await freePort();
  const logFd = openSync(logFile, 'a');
  // detached: the server becomes a session and process-group leader (setsid), so
  // its extension host, watchers and pty host can be killed as one group.
  const child = spawn(
    CODE_SERVER_BIN,
    [
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--disable-proxy',
      '--ignore-last-opened',
      '--config',
      join(runDir, 'cfg', 'config.yaml'),
      ...dirArgs,
    ],
    { cwd: runDir, env, detached: true, stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  const pgid = child.pid;
  let exited = false;
  const exitedPromise = new Promise<void>((done) =>
    child.once('exit', () => {
      exited = true;
      done();
    }),
  );
  child.on('error', () => undefined); // reported through the health check below

  let stopped = false;
  const stop = async (stopOptions: { saveLogTo?: string } = {}): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await killAll(pgid, needles);
    if (pgid !== undefined) await Promise.race([exitedPromise, sleep(2_000)]);
    if (stopOptions.saveLogTo) {
      await mkdir(dirname(stopOptions.saveLogTo), { recursive: true });
      await copyFile(logFile, stopOptions.saveLogTo).catch(() => undefined);
    }
    await rm(runDir, { recursive: true, force: true });
    unregister();
  };
  const unregister = registerCleanup({
    name: `code-server on port ${port}`,
    run: () => stop(),
    runSync: () => {
      killAllSync(pgid, needles);
      rmSync(runDir, { recursive: true, force: true });
    },
  });

  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthz(origin, options.startTimeoutMs ?? 30_000, () => exited, logFile);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    port,
    origin,
    runDir,
    ...dirs,
    logFile,
    remoteUri: (absPath) => `vscode-remote://127.0.0.1:${port}${absPath.startsWith('/') ? '' : '/'}${absPath}`,
    installExtension: async (vsixPath) => {
      const { stdout } = await promisify(execFile)(
        CODE_SERVER_BIN,
        [...dirArgs, '--force', '--install-extension', resolve(vsixPath)],
        {
          env,
          cwd: runDir,
          timeout: 120_000,
        },
      );
      if (!/was successfully installed|is already installed/.test(stdout)) {
        throw new Error(`code-server --install-extension ${vsixPath} did not report success:\n${stdout}`);
      }
    },
    uninstallExtension: async (id) => {
      const { stdout } = await promisify(execFile)(CODE_SERVER_BIN, [...dirArgs, '--uninstall-extension', id], {
        env,
        cwd: runDir,
        timeout: 60_000,
      });
      if (!/successfully uninstalled/i.test(stdout))
        throw new Error(`code-server --uninstall-extension ${id} did not report success:\n${stdout}`);
    },
    stop,
  };
}

function assertInstalled(): void {
  if (!existsSync(CODE_SERVER_BIN)) {
    throw new Error(`code-server is not installed at ${CODE_SERVER_BIN}; run: bash scripts/install-code-server.sh`);
  }
  const pkg = join(REPO_ROOT, '.vscode-test', 'cs', 'node_modules', 'code-server', 'package.json');
  const version = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version : undefined;
  if (version !== CODE_SERVER_VERSION) {
    throw new Error(
      `code-server ${version ?? '(unknown)'} is installed, the tests need ${CODE_SERVER_VERSION}; run: bash scripts/install-code-server.sh`,
    );
  }
}

/** The parent environment minus VS Code's own variables, with every XDG dir and TMPDIR inside the run dir. */
function serverEnv(runDir: string, tmp: string, runtime: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^(VSCODE_|ELECTRON_)/.test(key) ||
      key === 'PORT' ||
      key === 'PASSWORD' ||
      key === 'HASHED_PASSWORD' ||
      key === 'GITHUB_TOKEN'
    )
      continue;
    env[key] = value;
  }
  return {
    ...env,
    [MARKER_VAR]: runDir,
    XDG_CONFIG_HOME: join(runDir, 'cfg'),
    XDG_DATA_HOME: join(runDir, 'data'),
    XDG_CACHE_HOME: join(runDir, 'cache'),
    XDG_STATE_HOME: join(runDir, 'state'),
    XDG_RUNTIME_DIR: runtime,
    TMPDIR: tmp,
    // An empty gallery: no marketplace queries (the tests are offline).
    EXTENSIONS_GALLERY: '{}',
  };
}

async function waitForHealthz(
  origin: string,
  timeoutMs: number,
  hasExited: () => boolean,
  logFile: string,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (hasExited()) throw new Error(`code-server exited before it was healthy; its log:\n${tail(logFile)}`);
    if (await healthy(origin)) return;
    await sleep(100);
  }
  throw new Error(`code-server was not healthy at ${origin}/healthz after ${timeoutMs} ms; its log:\n${tail(logFile)}`);
}

function healthy(origin: string): Promise<boolean> {
  return new Promise((done) => {
    const request = get(`${origin}/healthz`, { timeout: 1_000 }, (response) => {
      response.resume();
      done(response.statusCode === 200);
    });
    request.on('error', () => done(false));
    request.on('timeout', () => request.destroy());
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
