import { readdirSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScriptStep, ScriptedModelServer } from '../../../fixtures/scriptedModelServer';

/** The Claude Code version the stream format and these tests were checked against (the pinned devDependency). */
export const CLAUDE_VERSION = '2.1.332';

/** What the lane passes from the host's environment to the real CLI (its `passEnv` setting). */
export const PASS_ENV = ['ANTHROPIC_BASE_URL', 'CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_*', 'DISABLE_*'];

/**
 * The environment that points the real CLI at a local server and keeps it
 * off the network otherwise: a throwaway HOME and config dir (its sessions
 * live there), no telemetry, error reports, update checks or other
 * non-essential traffic, and at most `maxRetries` retries of a failed API
 * call (its backoff starts near 500 ms).
 */
export function claudeEnv(home: string, serverUrl: string, maxRetries: number): Record<string, string> {
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_BASE_URL: serverUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_MAX_RETRIES: String(maxRetries),
  };
}

/**
 * Makes the steps at the given request indexes a model turn that writes a
 * file with Claude Code's Write tool, in the directory the session shows the
 * model, as a model would pick it: where the conversation's earlier writes
 * went (the last Write call in its history), else the request's environment
 * context ("Primary working directory: …"). Write takes an absolute path,
 * and the run's worktree is only known once the CLI asks: it is read from
 * the request as it arrives, before it is answered. So a session resumed in
 * another directory goes on writing where its history did (which Claude
 * Code refuses as outside its working directory). Other fields of the step
 * (e.g. `dropAfterEvents`) are kept.
 */
export function writeTurns(
  server: ScriptedModelServer,
  script: ScriptStep[],
  writes: Record<number, { file: string; content: string }>,
): void {
  const before = server.onRequest;
  server.onRequest = (request) => {
    before?.(request);
    const write = writes[request.index];
    const step = script[request.index];
    if (!write || !step || !('turn' in step)) return;
    const dir = directoryShown(request.body);
    if (!dir) throw new Error(`request ${request.index} names no working directory`);
    script[request.index] = {
      ...step,
      turn: {
        text: `Writing ${write.file}.`,
        tools: [{ name: 'Write', input: { file_path: join(dir, write.file), content: write.content } }],
      },
    };
  };
}

/** The directory a Messages request shows the model: its history's last Write, else its working directory. */
export function directoryShown(body: unknown): string | undefined {
  const messages = (body as { messages?: { content?: unknown }[] } | undefined)?.messages ?? [];
  const written = messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .flatMap((b: { type?: string; name?: string; input?: { file_path?: unknown } }) =>
      b.type === 'tool_use' && b.name === 'Write' && typeof b.input?.file_path === 'string' ? [b.input.file_path] : [],
    )
    .at(-1);
  if (written) return dirname(written);
  return [...JSON.stringify(body ?? '').matchAll(/Primary working directory: (\S+)/g)].at(-1)?.[1]?.replace(/\\n$/, '');
}

/** Processes whose working directory is inside `dir` (a leftover CLI of a killed host). */
export function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(dir)) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}
