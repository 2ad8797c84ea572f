import { LANE_API_VERSION, type LaneManifest } from '../../src/api';
import { cliSettingsDocs } from '../shared/cliSettings';

export const cursorAgentManifest: LaneManifest = {
  id: 'cursor-agent',
  displayName: 'Cursor Agent',
  version: '1.0.0',
  apiVersion: LANE_API_VERSION,
  kind: 'cli',
  description:
    "Runs Cursor's headless agent CLI (`cursor-agent -p --output-format stream-json`) in the run's worktree.",
  defaultRetryCap: 2,
  defaultTimeoutMs: 60 * 60_000,
  // `cursor-agent --resume <chatId>` continues the chat of an interrupted attempt.
  capabilities: { resume: 'run', streaming: true, tools: true },
  settings: cliSettingsDocs('cursor-agent'),
  requiredSecrets: ['CURSOR_API_KEY'],
};
