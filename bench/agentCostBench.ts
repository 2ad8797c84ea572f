import { Project } from '../src/core/project/project';
import type { Usage } from '../src/core/model/laneEvent';
import { registryWithBuiltins } from '../src/lanes/builtinLanes';
import { anthropicServer, PromptCache } from '../test/fixtures/anthropicServer';
import type { ScriptStep } from '../test/fixtures/scriptedModelServer';
import { makeTempRepo } from '../test/helpers/tempRepo';

const KEY = 'sk-ant-api03-FAKEKEY-for-bench-0123456789abcdefghijklmnopqrstuvwxyz';

interface Session {
  usage: Usage;
  /** The prompt tokens of each call, as the server counted them. */
  prompts: number[];
  state: string;
  failure?: string;
  compactions: number;
}

/**
 * One task on the real `anthropic` lane against the scripted Messages server: the server's prompt-cache double prices
 * the prompts (characters / 4 per block, Sonnet 4.5's 1,024-token minimum), and with `window` it refuses a prompt
 * longer than that as the API does ("prompt is too long").
 */
async function session(
  files: Record<string, string>,
  script: ScriptStep[],
  settings: Record<string, unknown>,
  window?: number,
): Promise<Session> {
  const cache = new PromptCache();
  const server = await anthropicServer(script, { cache, ...(window ? { contextWindow: window } : {}) });
  const repo = await makeTempRepo({ 'README.md': '# bench\n', ...files });
  try {
    const project = await Project.open(repo.dir, {
      registry: registryWithBuiltins(),
      parentEnv: { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: KEY },
    });
    await project.settings.update((s) => {
      s.defaultLane = 'anthropic';
      s.laneSettings.anthropic = { baseUrl: `${server.url}/v1`, maxExecutions: 1_000, ...settings };
    });
    let compactions = 0;
    project.onRunEvent((_run, type, body) => {
      const event = body.event as { type?: string; message?: string } | undefined;
      if (type === 'lane' && event?.type === 'progress' && event.message?.startsWith('context compacted'))
        compactions++;
    });
    await project.tasks.add({ title: 'read the notes and summarise them' });
    await project.runQueue();
    const state = await project.state();
    const run = state.runs[0]!;
    return {
      usage: run.usage ?? { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      prompts: cache.usages.map((u) => u.input_tokens + u.cache_read_input_tokens! + u.cache_creation_input_tokens!),
      state: state.tasks[0]!.state,
      ...(state.tasks[0]!.failureReason ? { failure: state.tasks[0]!.failureReason } : {}),
      compactions,
    };
  } finally {
    await server.stop();
    await repo.cleanup();
  }
}

const readTurn = (path: string): ScriptStep => ({
  turn: { text: `Reading ${path}.`, tools: [{ name: 'read_file', input: { path } }] },
  usage: { input: 0, output: 60 },
});
const finish: ScriptStep = {
  turn: { tools: [{ name: 'finish', input: { summary: 'summarised the notes' } }] },
  usage: { input: 0, output: 40 },
};

/** Distinct text of about `size` characters. */
function note(n: number, size: number): string {
  const line = (i: number) => `note ${n} line ${i}: the quick brown fox jumps over the lazy dog ${n * 1000 + i}\n`;
  let text = '';
  for (let i = 0; text.length < size; i++) text += line(i);
  return text.slice(0, size);
}

function usd(value: number): string {
  return `$${value.toFixed(4)}`;
}

benchAgentCost.title = 'agent-cost: prompt caching and context compaction on the API lanes';
export async function benchAgentCost(): Promise<void> {
  // 1. A 15-turn session whose prompt grows by one ~1.4 KB file read per turn, with and without prompt caching.
  const files: Record<string, string> = {};
  for (let n = 1; n <= 14; n++) files[`notes/n${n}.txt`] = note(n, 1_400);
  const script = [...Object.keys(files).map(readTurn), finish];
  const cached = await session(files, script, {});
  const plain = await session(files, script, { promptCache: 'off' });
  const total = (s: Session) => s.prompts.reduce((n, p) => n + p, 0);
  console.log(
    `15-turn growing-prefix session (claude-sonnet-4-5 prices): prompt tokens per call ${plain.prompts[0]} → ${plain.prompts.at(-1)}, ${total(plain)} in all`,
  );
  console.log(
    `  without caching: ${usd(plain.usage.costUsd)} (${plain.usage.inputTokens} prompt tokens at the input price)`,
  );
  console.log(
    `  with caching:    ${usd(cached.usage.costUsd)} (${cached.usage.cacheReadTokens} read, ${cached.usage.cacheWriteTokens} written, ` +
      `${cached.usage.inputTokens - cached.usage.cacheReadTokens! - cached.usage.cacheWriteTokens!} uncached; ` +
      `${Math.round((cached.usage.cacheReadTokens! / cached.usage.inputTokens) * 100)}% read from cache)`,
  );
  const ratio = plain.usage.costUsd / cached.usage.costUsd;
  console.log(`  ${ratio.toFixed(2)}× cheaper with caching (target ≥ 2.5×): ${ratio >= 2.5 ? 'met' : 'NOT met'}`);

  // 2. 200 turns, each reading a 20 KB file, against a 32k-token window.
  const turns = Number(process.env.SWITCHYARD_BENCH_AGENT_TURNS ?? 200);
  const big: Record<string, string> = {};
  for (let n = 1; n <= turns; n++) big[`logs/l${n}.txt`] = note(n, 20_000);
  const long = await session(
    big,
    [...Object.keys(big).map(readTurn), finish],
    {
      contextWindow: 32_768,
      maxTokens: 100_000_000,
      maxTaskCostUsd: 1_000,
    },
    32_768,
  );
  console.log(
    `${turns}-turn session, 20 KB tool output per turn, 32768-token window: task ${long.state}${long.failure ? ` (${long.failure})` : ''}; ${long.prompts.length} calls, ${long.compactions} compactions, ` +
      `largest prompt ${Math.max(...long.prompts)} tokens, ${long.usage.inputTokens} prompt tokens in all ` +
      `(${Math.round(((long.usage.cacheReadTokens ?? 0) / long.usage.inputTokens) * 100)}% read from cache), ${usd(long.usage.costUsd)}`,
  );
  console.log('  prompt tokens per call:');
  for (let i = 0; i < long.prompts.length; i += 20)
    console.log(`  ${String(i + 1).padStart(4)}: ${long.prompts.slice(i, i + 20).join(' ')}`);
}
