import { LANE_API_VERSION, type LaneManifest } from '../../src/api';
import { cliSettingsDocs } from '../shared/cliSettings';

export const codexManifest: LaneManifest = {
  id: 'codex',
  displayName: 'Codex',
  version: '1.0.0',
  apiVersion: LANE_API_VERSION,
  kind: 'cli',
  description: "Runs OpenAI's Codex CLI headless (`codex exec --json`) in the run's worktree.",
  defaultRetryCap: 2,
  defaultTimeoutMs: 60 * 60_000,
  // `codex exec resume <thread_id>` continues the thread of an interrupted attempt.
  capabilities: { resume: 'run', streaming: true, tools: true },
  settings: cliSettingsDocs('codex'),
  requiredSecrets: ['OPENAI_API_KEY'],
};
