import { LANE_API_VERSION, type LaneManifest } from '../../src/api';

export const commandLaneManifest: LaneManifest = {
  id: 'command',
  displayName: 'Command',
  version: '1.0.0',
  apiVersion: LANE_API_VERSION,
  kind: 'command',
  description: "Runs a configured command line (any agent CLI or script) in the run's worktree.",
  defaultRetryCap: 2,
  defaultTimeoutMs: 30 * 60_000,
  capabilities: { resume: 'none', streaming: true, tools: false },
  settings: {
    command: {
      description:
        'The command line to run (through the shell). The task spec arrives on stdin, whole in the file named by SWITCHYARD_TASK_SPEC_FILE, and in SWITCHYARD_TASK_SPEC (cut with a note past 64 KiB).',
      required: true,
      type: 'string',
      class: 'executes',
    },
    reviewCommand: {
      description:
        'What a review run executes (default: command) with SWITCHYARD_REVIEW=1 and the spec, the diff and the gate evidence on stdin: exit 0 approves, another exit code requests changes (its last output lines are the reasons).',
      type: 'string',
      class: 'executes',
    },
    timeoutMs: {
      description: 'Abort the command after this many milliseconds (default 30 minutes).',
      type: 'integer',
      class: 'plain',
    },
    env: {
      description:
        'Names of extra environment variables to pass through from the parent environment, as a JSON list, e.g. ["MY_TOKEN"].',
      type: 'string[]',
      class: 'routes-credential',
    },
  },
};
