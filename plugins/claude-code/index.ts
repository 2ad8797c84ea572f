import type { LanePlugin } from '../../src/api';
import { pickSecrets } from '../shared/cliEnv';
import { cliReadiness } from '../shared/cliReadiness';
import { runCliLane, type CliLaneSpec } from '../shared/runCliLane';
import { claudeSignIn } from './authStatus';
import { claudeCodeManifest } from './manifest';
import { ClaudeStreamEvent } from './streamSchema';
import { sessionCostState } from './sessionCostState';
import { claudeTranslator } from './translate';

/**
 * `claude -p --output-format stream-json --verbose` (stream-json needs
 * --verbose in print mode) with `--include-partial-messages` (each call's
 * final usage as it ends), the prompt on stdin, file edits accepted
 * (`--permission-mode acceptEdits`; more via `extraArgs`; none for a
 * review), `--resume <id>` for an interrupted attempt's session.
 */
const spec: CliLaneSpec<ClaudeStreamEvent> = {
  laneId: claudeCodeManifest.id,
  cli: 'claude',
  product: 'Claude Code',
  binaryNames: ['claude'],
  secretEnv: (secrets) => pickSecrets(secrets, { ANTHROPIC_API_KEY: 'ANTHROPIC_API_KEY' }),
  invocation: ({ settings, prompt, sessionId, review }) => ({
    args: [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      // Each API call's final usage as its stream ends (`stream_event` message_delta), not only in the last result.
      '--include-partial-messages',
      // A review asks for nothing: print mode then denies edits and commands.
      ...(review ? [] : ['--permission-mode', 'acceptEdits']),
      ...(settings.model ? ['--model', settings.model] : []),
      ...(sessionId ? ['--resume', sessionId] : []),
      ...settings.extraArgs,
    ],
    stdin: prompt,
  }),
  schema: ClaudeStreamEvent,
  // The result's totals are the session's: a resumed session's restored totals are read first (sessionCostState.ts).
  translator: async ({ workspaceDir, sessionId, env }) =>
    claudeTranslator({ workspaceDir, restored: sessionId ? await sessionCostState(env, sessionId) : undefined }),
};

/**
 * The `claude-code` lane: Anthropic's Claude Code CLI, signed in (its own login) or given ANTHROPIC_API_KEY when one
 * is set for the lane.
 */
export function createClaudeCodeLane(): LanePlugin {
  return {
    manifest: claudeCodeManifest,
    run: (input) => runCliLane(spec, input),
    readiness: cliReadiness(spec.laneId, spec.product, spec.binaryNames, claudeSignIn),
  };
}
