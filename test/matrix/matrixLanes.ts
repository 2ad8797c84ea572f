import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { anthropicServer } from '../fixtures/anthropicServer';
import { openaiServer } from '../fixtures/openaiServer';
import { responsesServer } from '../fixtures/responsesServer';
import type { ScriptStep, ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { codexHome } from '../helpers/realCodex';
import { PASS_ENV, claudeEnv } from '../integration/plugins/claude-code/realClaudeSetup';
import type { LaneWire } from './brain';

export const MATRIX_LANES = ['claude-code', 'codex', 'openai-compatible', 'command'] as const;
export type MatrixLane = (typeof MATRIX_LANES)[number];

/** The command lane's agent: a minimal agent CLI that asks the scripted model and writes what it answers. */
const COMMAND_AGENT = resolve('test/matrix/commandAgent.mjs');

/**
 * The working directory a conversation began in: the first one the request names. A resumed session's history
 * (its first messages) names where it began, before the new process's own system prompt; a model that continues its
 * conversation goes on writing where its earlier calls wrote.
 */
const firstMatch = (text: string, pattern: RegExp): string | undefined => pattern.exec(text)?.[1];
const onDisk = (cwd: string | undefined, path: string): string | null =>
  cwd && existsSync(join(cwd, path)) ? readFileSync(join(cwd, path), 'utf8') : null;
const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n');

/**
 * Claude Code (Messages API): the session names its working directory in its environment context ("Primary
 * working directory: …"; a resumed session's history keeps the one it began in, see firstMatch); Write and Read
 * take absolute paths, and Write refuses to replace a file the session has not read, so the model reads an
 * existing file first.
 */
const claudeWire: LaneWire = {
  cwd: (text) => firstMatch(text, /Primary working directory: ([^\s\\"]+)/),
  file(body, cwd, path) {
    const content = onDisk(cwd, path);
    if (content === null || !cwd) return content;
    const seen = JSON.stringify(body?.messages ?? []).includes(`"file_path":${JSON.stringify(join(cwd, path))}`);
    return seen ? content : undefined;
  },
  target: (cwd, file) => join(cwd ?? '.', file),
  step(move, cwd) {
    if ('hang' in move) return { hang: true };
    if ('end' in move) return { turn: { text: move.end } };
    if ('read' in move)
      return {
        turn: { text: `Reading ${move.read}.`, tools: [{ name: 'Read', input: { file_path: join(cwd!, move.read) } }] },
      };
    return {
      turn: {
        text: 'Writing the change.',
        tools: move.write.map((w) => ({ name: 'Write', input: { file_path: join(cwd!, w.file), content: w.content } })),
      },
    };
  },
};

/**
 * Codex (Responses API): the session names its directory in the environment context (`<cwd>…</cwd>`); an edit is
 * `exec_command` running `apply_patch` (codex applies it itself), at the absolute path under that directory.
 */
const codexWire: LaneWire = {
  cwd: (text) => firstMatch(text, /<cwd>([^<]+)<\/cwd>/),
  file: (_body, cwd, path) => onDisk(cwd, path),
  target: (cwd, file) => join(cwd ?? '.', file),
  step(move, cwd) {
    if ('hang' in move) return { hang: true };
    if ('end' in move) return { turn: { text: move.end } };
    if ('read' in move) throw new Error('the codex model reads files where the session says it works');
    const patch = ['*** Begin Patch'];
    for (const w of move.write) {
      const path = join(cwd!, w.file);
      const old = onDisk(cwd, w.file);
      if (old === null) patch.push(`*** Add File: ${path}`, ...lines(w.content).map((l) => `+${l}`));
      else
        patch.push(
          `*** Update File: ${path}`,
          '@@',
          ...lines(old).map((l) => `-${l}`),
          ...lines(w.content).map((l) => `+${l}`),
        );
    }
    patch.push('*** End Patch');
    return {
      turn: {
        text: 'Writing the change.',
        tools: [{ name: 'exec_command', input: { cmd: `apply_patch <<'EOF'\n${patch.join('\n')}\nEOF\n` } }],
      },
    };
  },
};

/** A tool result's text in a chat-completions request (a string, or the SDK's JSON of one). */
function toolText(content: unknown): string {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed === 'string') return parsed;
    if (parsed && typeof parsed.value === 'string') return parsed.value;
  } catch {
    // Plain text.
  }
  return text;
}

/**
 * The openai-compatible API lane (Switchyard's own agent loop): the session names no path, every tool takes a path
 * relative to the worktree; the model knows a file from the conversation (a read_file result, its own write_file).
 */
const apiWire: LaneWire = {
  cwd: () => undefined,
  file(body, _cwd, path) {
    const calls = new Map<string, { name: string; args: any }>();
    let known: string | null | undefined;
    for (const message of body?.messages ?? []) {
      for (const call of message.tool_calls ?? []) {
        const args = JSON.parse(call.function?.arguments || '{}');
        calls.set(call.id, { name: call.function?.name, args });
        if (call.function?.name === 'write_file' && args.path === path) known = args.content;
      }
      const call = message.role === 'tool' ? calls.get(message.tool_call_id) : undefined;
      if (call?.name === 'read_file' && call.args.path === path) {
        const text = toolText(message.content);
        known = /ENOENT|no such file|does not exist|not found/i.test(text) ? null : text;
      }
    }
    return known;
  },
  target: (_cwd, file) => file,
  step(move) {
    if ('hang' in move) return { hang: true };
    if ('end' in move) return { turn: { tools: [{ name: 'finish', input: { summary: move.end } }] } };
    if ('read' in move) return { turn: { tools: [{ name: 'read_file', input: { path: move.read } }] } };
    return {
      turn: { tools: move.write.map((w) => ({ name: 'write_file', input: { path: w.file, content: w.content } })) },
    };
  },
};

/** The command lane's agent (commandAgent.mjs): it names its working directory; write_file takes absolute paths. */
const commandWire: LaneWire = {
  cwd: (text) => firstMatch(text, /Primary working directory: ([^\s\\"]+)/),
  file: (_body, cwd, path) => onDisk(cwd, path),
  target: (cwd, file) => join(cwd ?? '.', file),
  step(move, cwd) {
    if ('hang' in move) return { hang: true };
    if ('end' in move) return { turn: { text: move.end } };
    if ('read' in move) throw new Error('the command agent reads files where it says it works');
    return {
      turn: {
        tools: move.write.map((w) => ({
          name: 'write_file',
          input: { file_path: join(cwd!, w.file), content: w.content },
        })),
      },
    };
  },
};

export interface LaneKit {
  lane: MatrixLane;
  wire: LaneWire;
  server: ScriptedModelServer;
  script: ScriptStep[];
  /** What the Switchyard process's environment needs for this lane (keys, HOME, the CLI's own settings). */
  env: Record<string, string>;
  settings: Record<string, unknown>;
  /** USD per million tokens the lane's recorded cost is computed at; undefined: the lane reports no usage at all. */
  price?: { input: number; output: number };
}

const KEYS = {
  anthropic: ['sk', 'ant', 'matrix', '0123456789abcdef'].join('-'),
  openai: 'sk-matrix-openai-0123456789abcdef',
  compatible: 'sk-matrix-compatible-0123456789abcdef',
};

/** Starts the lane's scripted model server and returns what a project needs to run the lane against it. */
export async function startLane(lane: MatrixLane, side: string): Promise<LaneKit> {
  const script: ScriptStep[] = [];
  const home = join(side, 'home');
  switch (lane) {
    case 'claude-code': {
      const server = await anthropicServer(script);
      return {
        lane,
        wire: claudeWire,
        server,
        script,
        env: { ANTHROPIC_API_KEY: KEYS.anthropic, ...claudeEnv(home, server.url, 0) },
        settings: {
          binary: realpathSync(resolve('node_modules/.bin/claude')),
          passEnv: PASS_ENV,
          model: 'claude-sonnet-4-5',
        },
        // Claude Code's own price of claude-sonnet-4-5 (its `total_cost_usd`): $3 / $15 per million tokens.
        price: { input: 3, output: 15 },
      };
    }
    case 'codex': {
      const server = await responsesServer(script);
      const codex = await codexHome(side, server.url);
      const { PATH: _path, ...env } = codex.env(KEYS.openai);
      // Codex reports tokens, not cost: Switchyard records $0 for it.
      return { lane, wire: codexWire, server, script, env, settings: codex.settings, price: { input: 0, output: 0 } };
    }
    case 'openai-compatible': {
      const server = await openaiServer(script);
      return {
        lane,
        wire: apiWire,
        server,
        script,
        env: { HOME: home, OPENAI_COMPATIBLE_API_KEY: KEYS.compatible },
        settings: {
          baseUrl: `${server.url}/v1`,
          model: 'test-model',
          price: { inputPerMTokUsd: 3, outputPerMTokUsd: 15 },
          retry: { initialIntervalMs: 5, jitter: 0 },
        },
        price: { input: 3, output: 15 },
      };
    }
    case 'command': {
      const server = await openaiServer(script);
      return {
        lane,
        wire: commandWire,
        server,
        script,
        env: { HOME: home, MATRIX_MODEL_URL: server.url },
        settings: { command: `node ${JSON.stringify(COMMAND_AGENT)}`, env: ['MATRIX_MODEL_URL'] },
        // The command lane has no way to report what its command spent: no usage is recorded.
        price: undefined,
      };
    }
  }
}

/** Whether `path` (absolute) is `dir` or inside it, both resolved through symlinks where they exist. */
export function isInside(path: string, dir: string): boolean {
  if (!isAbsolute(path)) return !path.split(/[\\/]/).includes('..');
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const d = real(dir);
  const p = existsSync(path) ? real(path) : join(real(join(path, '..')), path.split('/').at(-1)!);
  return p === d || p.startsWith(`${d}/`);
}
