import type { LanePlugin } from '../../src/api';
import { pickSecrets } from '../shared/cliEnv';
import { cliReadiness } from '../shared/cliReadiness';
import { runCliLane, type CliLaneSpec } from '../shared/runCliLane';
import { codexManifest } from './manifest';
import { CodexStreamEvent } from './streamSchema';
import { codexUsageAccount } from './threadUsage';
import { codexTranslator } from './translate';

/**
 * `codex exec --json --sandbox workspace-write [--model M] [extraArgs] -`
 * (a review: `--sandbox read-only`),
 * the prompt on stdin (`-`); for an interrupted attempt's thread
 * `codex exec --json … resume <thread_id> -`. The key goes in both
 * OPENAI_API_KEY and CODEX_API_KEY (which `codex exec` prefers).
 * `codex exec resume` refuses a thread that another codex process still
 * writes (`thread/resume failed: thread … already has an active writer
 * (code -32600)`, exit 1, nothing on stdout; codex-cli 0.171.0): the lane
 * then starts a fresh session with the salvaged work.
 */
const ACTIVE_WRITER = /already has an active writer/i;

const spec: CliLaneSpec<CodexStreamEvent> = {
  laneId: codexManifest.id,
  cli: 'codex',
  product: 'Codex',
  binaryNames: ['codex'],
  secretEnv: (secrets) => pickSecrets(secrets, { OPENAI_API_KEY: 'OPENAI_API_KEY', CODEX_API_KEY: 'OPENAI_API_KEY' }),
  invocation: ({ settings, prompt, sessionId, review }) => ({
    args: [
      'exec',
      '--json',
      '--sandbox',
      review ? 'read-only' : 'workspace-write',
      ...(settings.model ? ['--model', settings.model] : []),
      ...settings.extraArgs,
      ...(sessionId ? ['resume', sessionId] : []),
      '-',
    ],
    stdin: prompt,
  }),
  schema: CodexStreamEvent,
  translator: codexTranslator,
  sessionRefused: ACTIVE_WRITER,
  // turn.completed reports the thread's running total: each process counts its own share.
  usageAccount: codexUsageAccount,
};

/** The `codex` lane: OpenAI's Codex CLI. */
export function createCodexLane(): LanePlugin {
  return {
    manifest: codexManifest,
    run: (input) => runCliLane(spec, input),
    readiness: cliReadiness(spec.laneId, spec.product, spec.binaryNames),
  };
}
