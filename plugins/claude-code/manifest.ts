import { LANE_API_VERSION, type LaneManifest } from '../../src/api';
import { cliSettingsDocs } from '../shared/cliSettings';

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
  requiredSecrets: ['ANTHROPIC_API_KEY'],
};
