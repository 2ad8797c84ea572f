import { LANE_API_VERSION, type LaneManifest } from '../../src/api';
import { cliSettingsDocs } from '../shared/cliSettings';

const MTOK = (input: number, output: number) => ({ inputPerMTokUsd: input, outputPerMTokUsd: output });

export const claudeCodeManifest: LaneManifest = {
  id: 'claude-code',
  displayName: 'Claude Code',
  version: '1.0.0',
  apiVersion: LANE_API_VERSION,
  kind: 'cli',
  description:
    "Runs Anthropic's Claude Code CLI headless (`claude -p --output-format stream-json`) in the run's worktree.",
  defaultRetryCap: 2,
  defaultTimeoutMs: 60 * 60_000,
  // `claude --resume <session_id>` continues the session of an interrupted attempt.
  capabilities: { resume: 'run', streaming: true, tools: true },
  settings: cliSettingsDocs('claude'),
  // Claude Code users normally sign in to the CLI (`claude auth login`); a key set for the lane is passed when there.
  optionalSecrets: ['ANTHROPIC_API_KEY'],
  /**
   * USD per million tokens (Anthropic's list prices; `claude-opus-5-5` as Claude Code 2.1.332 prices it in its
   * result): the price of a call whose process ends without a result (killed), see usageTally.ts. A result's
   * `total_cost_usd` is Claude Code's own figure.
   */
  modelPrices: {
    'claude-sonnet-4': MTOK(3, 15),
    'claude-haiku-4-5': MTOK(1, 5),
    'claude-opus-4': MTOK(15, 75),
    'claude-opus-4-5': MTOK(5, 25),
    'claude-opus-5-5': MTOK(4, 20),
    'claude-3-5-haiku': MTOK(0.8, 4),
    'claude-3-haiku': MTOK(0.25, 1.25),
  },
};
