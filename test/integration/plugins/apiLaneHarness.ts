import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { Project } from '../../../src/core/project/project';
import { registryWithBuiltins } from '../../../src/lanes/builtinLanes';
import { anthropicServer } from '../../fixtures/anthropicServer';
import { openaiServer } from '../../fixtures/openaiServer';
import type { ScriptStep, ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { buildCliBundle } from '../../helpers/cliBundle';
import { makeTempRepo } from '../../helpers/tempRepo';

export const FAKE_ANTHROPIC_KEY = 'sk-ant-api03-FAKEKEY-for-tests-0123456789abcdefghijklmnopqrstuvwxyz';
export const FAKE_OPENAI_KEY = 'sk-or-v1-FAKEKEY-for-tests-9876543210zyxwvutsrqponmlkjihgfedcba';

export interface ApiLaneCase {
  lane: 'anthropic' | 'openai-compatible';
  server: (script: ScriptStep[]) => Promise<ScriptedModelServer>;
  keyName: string;
  /** The key put in the environment; empty for none. */
  key: string;
  settings: Record<string, unknown>;
}

export const API_LANES: readonly [ApiLaneCase, ApiLaneCase] = [
  { lane: 'anthropic', server: anthropicServer, keyName: 'ANTHROPIC_API_KEY', key: FAKE_ANTHROPIC_KEY, settings: {} },
  {
    lane: 'openai-compatible',
    server: openaiServer,
    keyName: 'OPENAI_COMPATIBLE_API_KEY',
    key: FAKE_OPENAI_KEY,
    settings: { model: 'test-model' },
  },
];

export const REPO_FILES = {
  'README.md': '# demo\n',
  'src/user.py': 'def create_user(name):\n    return {"name": name}\n',
  'tests/test_user.py':
    'from src.user import create_user\n\ndef test_create():\n    assert create_user("a")["name"] == "a"\n',
  // A stand-in test runner that fails the way pytest does.
  'run_tests.sh':
    'echo "collected 1 item"\necho "FAILED tests/test_user.py::test_create - assert 1 == 2"\necho "==== 1 failed in 0.01s ===="\nexit 1\n',
};

/**
 * A temp repository whose default lane is an API lane pointed at a scripted
 * local server, with the lane's key in the environment and fast retries.
 */
export async function apiLaneProject(c: ApiLaneCase, script: ScriptStep[], settings: Record<string, unknown> = {}) {
  const server = await c.server(script);
  const repo = await makeTempRepo(REPO_FILES);
  const project = await Project.open(repo.dir, {
    registry: registryWithBuiltins(),
    parentEnv: { PATH: process.env.PATH, HOME: process.env.HOME, [c.keyName]: c.key },
  });
  await project.settings.update((s) => {
    s.defaultLane = c.lane;
    s.laneSettings[c.lane] = {
      baseUrl: `${server.url}/v1`,
      retry: { initialIntervalMs: 5, jitter: 0 },
      ...c.settings,
      ...settings,
    };
  });
  const events: { type: string; body: Record<string, unknown> }[] = [];
  project.onRunEvent((_run, type, body) => events.push({ type, body }));
  const runDir = (runId: string) => join(repo.dir, '.switchyard', 'runs', runId);
  return {
    server,
    repo,
    project,
    events,
    /** The lane's normalized events, in order. */
    laneEvents: () =>
      events.filter((e) => e.type === 'lane').map((e) => e.body.event as { type: string; [k: string]: unknown }),
    journal: async (runId = 't1.1') =>
      (await readFile(join(runDir(runId), 'journal.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    /** A file as run t1.1 left it: in its worktree, or on its branch once the worktree is gone (integrated). */
    file: (path: string) =>
      readFile(join(repo.dir, '.switchyard', 'worktrees', 't1.1', path), 'utf8').catch(() =>
        repo.git('show', `switchyard/t1/1:${path}`),
      ),
    cleanup: async () => {
      await server.stop();
      await repo.cleanup();
    },
  };
}

/**
 * The tool results a request sends back for the previous turn (the messages after the last assistant message), whatever
 * the wire format.
 */
export function toolResultsIn(body: any): { text: string; isError: boolean }[] {
  const messages: any[] = body.messages ?? [];
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  const out: { text: string; isError: boolean }[] = [];
  for (const message of messages.slice(lastAssistant + 1)) {
    if (message.role === 'tool') out.push({ text: String(message.content), isError: false });
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (block.type === 'tool_result')
          out.push({
            text:
              typeof block.content === 'string' ? block.content : block.content.map((c: any) => c.text ?? '').join(''),
            isError: block.is_error === true,
          });
      }
    }
  }
  return out;
}

/** The last tool result in a request (the answer to the previous turn's last tool call). */
export function lastToolResult(body: any): { text: string; isError: boolean } {
  const all = toolResultsIn(body);
  return all[all.length - 1] ?? { text: '(none)', isError: false };
}

let cliBundle: Promise<string> | undefined;
/**
 * The CLI bundled once for every API lane test that runs it as a real process (removed when the test process exits).
 */
export function sharedCliBundle(): Promise<string> {
  cliBundle ??= buildCliBundle().then((file) => {
    process.once('exit', () => rmSync(dirname(file), { recursive: true, force: true }));
    return file;
  });
  return cliBundle;
}

/** Runs the CLI as its own process group, so a test can SIGKILL it with everything it started. */
export function runCli(cli: string, repo: string, args: string[], env: Record<string, string>) {
  return execa('node', [cli, ...args, '--repo', repo], {
    reject: false,
    detached: true,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
    extendEnv: false,
  });
}

export function killGroup(child: { pid?: number }): void {
  if (child.pid) process.kill(-child.pid, 'SIGKILL');
}
