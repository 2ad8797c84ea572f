import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ModelUsage } from './streamSchema';

/** A session's running totals as Claude Code keeps them: per model, and the cost. */
export interface SessionTotals {
  modelUsage: Record<string, ModelUsage>;
  totalCostUsd: number;
}

/** The line Claude Code appends to a session's transcript when a process of it ends (2.1.332). */
const CostState = z.looseObject({
  type: z.literal('cost-state'),
  sessionId: z.string().optional(),
  totalCostUSD: z.number(),
  modelUsage: z.record(z.string(), ModelUsage),
});

/**
 * The running totals a resumed Claude Code session starts from: the last
 * `cost-state` line of its transcript (`$CLAUDE_CONFIG_DIR/projects/<the
 * directory, escaped>/<session>.jsonl`, default `~/.claude`). Seen with
 * Claude Code 2.1.332 (test/integration/plugins/claude-code/realClaudeUsage.test.ts):
 * a process that ends (its result given, or on SIGTERM) appends its session's
 * totals there, and `claude --resume` restores them, so the resumed process's
 * `result.modelUsage` and `total_cost_usd` count the earlier processes too;
 * a SIGKILLed process appends nothing, and nothing of it is restored.
 * Undefined when there is no such line (a new session, no transcript).
 */
export async function sessionCostState(
  env: Readonly<Record<string, string>>,
  sessionId: string,
): Promise<SessionTotals | undefined> {
  const config = env.CLAUDE_CONFIG_DIR || (env.HOME ? join(env.HOME, '.claude') : undefined);
  if (!config) return undefined;
  const projects = join(config, 'projects');
  let last: z.infer<typeof CostState> | undefined;
  for (const dir of await readdir(projects).catch(() => [] as string[])) {
    const text = await readFile(join(projects, dir, `${sessionId}.jsonl`), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    for (const raw of text.split('\n')) {
      if (!raw.includes('"cost-state"')) continue;
      try {
        const parsed = CostState.safeParse(JSON.parse(raw));
        if (parsed.success && (parsed.data.sessionId ?? sessionId) === sessionId) last = parsed.data;
      } catch {
        // A torn line: not a record.
      }
    }
  }
  return last ? { modelUsage: last.modelUsage, totalCostUsd: last.totalCostUSD } : undefined;
}
