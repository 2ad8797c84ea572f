import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { LaneUsage, UsageAccount } from '../shared/runCliLane';

interface Tokens {
  input: number;
  output: number;
}
const ZERO: Tokens = { input: 0, output: 0 };

const Totals = z.looseObject({ input_tokens: z.number(), output_tokens: z.number() });
/**
 * The rollout lines that matter here: `event_msg` payloads `token_count` (with the thread's running total) and
 * `task_complete` (a turn ended, completed or failed).
 */
const RolloutLine = z.looseObject({
  type: z.string(),
  payload: z
    .looseObject({ type: z.string().optional(), info: z.looseObject({ total_token_usage: Totals }).nullish() })
    .optional(),
});

/**
 * The tokens one codex process spent. Codex's `turn.completed` usage is the
 * THREAD's running total (`total_token_usage`), so on a resumed thread it
 * repeats every earlier turn (seen with codex-cli 0.171.0: a resumed turn of
 * 300 input tokens after one of 100 reports 400). Codex keeps the thread's
 * record in `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`
 * (default `~/.codex`): `token_count` events after each model call and a
 * `task_complete` event when a turn ends (with `error` if it failed). The
 * baseline of a resumed thread is its total at its last ended turn, which
 * the process that ran that turn already reported; calls of a process that
 * was killed mid-turn (no `task_complete`) are counted by the next one. A
 * failed turn reports no usage in the stream; what it spent is read from
 * the record. Without a record (another layout) usage is taken as reported.
 */
export async function codexUsageAccount(
  env: Readonly<Record<string, string>>,
  sessionId: string | undefined,
): Promise<UsageAccount> {
  const home = env.CODEX_HOME || (env.HOME ? join(env.HOME, '.codex') : undefined);
  const baseline = sessionId && home ? ((await readTotals(home, sessionId))?.ended ?? ZERO) : ZERO;
  const share = (thread: string | undefined, input: number, output: number): Tokens => {
    const base = thread === sessionId ? baseline : ZERO;
    return { input: Math.max(0, input - base.input), output: Math.max(0, output - base.output) };
  };
  return {
    reported(usage: LaneUsage, thread: string | undefined): LaneUsage {
      const own = share(thread, usage.inputTokens ?? 0, usage.outputTokens ?? 0);
      return { ...usage, inputTokens: own.input, outputTokens: own.output };
    },
    async unreported(thread: string | undefined): Promise<LaneUsage | undefined> {
      const totals = thread && home ? await readTotals(home, thread) : undefined;
      if (!totals) return undefined;
      const own = share(thread, totals.latest.input, totals.latest.output);
      return own.input || own.output ? { inputTokens: own.input, outputTokens: own.output, costUsd: 0 } : undefined;
    },
  };
}

/** The thread's running total at its last ended turn and now, from its rollout file; undefined without one. */
async function readTotals(home: string, thread: string): Promise<{ ended: Tokens; latest: Tokens } | undefined> {
  const file = await findRollout(join(home, 'sessions'), thread);
  const text = file ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
  if (text === undefined) return undefined;
  let latest = ZERO;
  let ended = ZERO;
  for (const raw of text.split('\n')) {
    if (!raw.includes('"token_count"') && !raw.includes('"task_complete"')) continue;
    let line: z.infer<typeof RolloutLine> | undefined;
    try {
      const parsed = RolloutLine.safeParse(JSON.parse(raw));
      line = parsed.success ? parsed.data : undefined;
    } catch {
      line = undefined;
    }
    const total = line?.payload?.type === 'token_count' ? line.payload.info?.total_token_usage : undefined;
    if (total) latest = { input: total.input_tokens, output: total.output_tokens };
    if (line?.payload?.type === 'task_complete') ended = latest;
  }
  return { ended, latest };
}

/** `sessions/YYYY/MM/DD/rollout-…-<thread>.jsonl`, newest day first. */
async function findRollout(sessions: string, thread: string): Promise<string | undefined> {
  const list = async (dir: string): Promise<string[]> =>
    (await readdir(dir).catch(() => [] as string[])).sort().reverse();
  for (const year of await list(sessions)) {
    for (const month of await list(join(sessions, year))) {
      for (const day of await list(join(sessions, year, month))) {
        const name = (await list(join(sessions, year, month, day))).find(
          (f) => f.startsWith('rollout-') && f.endsWith(`-${thread}.jsonl`),
        );
        if (name) return join(sessions, year, month, day, name);
      }
    }
  }
  return undefined;
}
