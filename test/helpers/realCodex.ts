import { readdir, readlink, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The real Codex CLI (npm @openai/codex, pinned in package.json; its native binary ships inside the package). */
export const CODEX_BIN = resolve('node_modules/.bin/codex');
/** The version whose stream, errors and session handling these tests were checked against. */
export const CODEX_VERSION = '0.171.0';

/**
 * Every HTTP(S) request codex makes to anything but 127.0.0.1 goes to a
 * proxy that does not exist (port 9, nothing listens): codex looks up
 * github.com, api.github.com and chatgpt.com at start-up otherwise (seen
 * with strace); through the proxy variables it resolves and reaches nothing.
 */
const DEAD_PROXY = 'http://127.0.0.1:9';
export const NO_NETWORK_ENV = {
  HTTPS_PROXY: DEAD_PROXY,
  HTTP_PROXY: DEAD_PROXY,
  ALL_PROXY: DEAD_PROXY,
  NO_PROXY: '127.0.0.1,localhost',
};

export interface CodexHomeOptions {
  /** The provider's `request_max_retries` (codex's own retries of a failed HTTP request). */
  requestRetries?: number;
  /** The provider's `stream_max_retries` (reconnects after a stream that broke off). */
  streamRetries?: number;
}

/**
 * A HOME for the real codex with `~/.codex/config.toml` pointing it at a
 * local Responses server (a custom `[model_providers.…]` entry with
 * `wire_api = "responses"` and the key read from OPENAI_API_KEY, which the
 * lane sets from its secret), codex's own retries bounded, analytics and
 * feedback off, and the workspace-write sandbox limited to the worktree
 * (no /tmp, no $TMPDIR, so a write outside it is a real sandbox denial).
 * Returns the parent environment a Switchyard process needs and the codex
 * lane's settings (the real binary; the proxy variables passed through).
 */
export async function codexHome(dir: string, serverUrl: string, options: CodexHomeOptions = {}) {
  const home = join(dir, 'home');
  await mkdir(join(home, '.codex'), { recursive: true });
  const config = [
    'model = "test-model"',
    'model_provider = "switchyard-test"',
    '',
    '[model_providers.switchyard-test]',
    'name = "Switchyard test server"',
    `base_url = "${serverUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    `request_max_retries = ${options.requestRetries ?? 0}`,
    `stream_max_retries = ${options.streamRetries ?? 0}`,
    'stream_idle_timeout_ms = 30000',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[sandbox_workspace_write]',
    'exclude_slash_tmp = true',
    'exclude_tmpdir_env_var = true',
    '',
  ].join('\n');
  await writeFile(join(home, '.codex', 'config.toml'), config);
  return {
    home,
    /** The environment of the Switchyard process (the lane's key comes from OPENAI_API_KEY). */
    env: (key: string): Record<string, string> => ({
      PATH: process.env.PATH ?? '',
      HOME: home,
      OPENAI_API_KEY: key,
      ...NO_NETWORK_ENV,
    }),
    settings: { binary: CODEX_BIN, passEnv: Object.keys(NO_NETWORK_ENV) },
  };
}

/** The processes whose working directory is `dir` or inside it (the CLI of a run in its worktree), by pid. */
export async function processesIn(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => undefined);
    if (cwd && (cwd === dir || cwd.startsWith(`${dir}/`))) pids.push(Number(entry));
  }
  return pids;
}

/** SIGKILLs the given processes (those this test started, found by `processesIn`). */
export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * An edit the way codex 0.171 makes one: its `exec_command` tool running `apply_patch`, which codex intercepts and
 * applies itself (a `file_change` item).
 */
export function applyPatch(file: string, line: string) {
  return {
    name: 'exec_command',
    input: { cmd: `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${file}\n+${line}\n*** End Patch\nEOF\n` },
  };
}

/** What codex sent back for the previous call (the `function_call_output` items of a request). */
export function toolOutputs(body: any): string[] {
  return (body.input ?? []).filter((i: any) => i.type === 'function_call_output').map((i: any) => String(i.output));
}
