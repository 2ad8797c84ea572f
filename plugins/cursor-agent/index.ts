import type { LanePlugin } from '../../src/api';
import { pickSecrets } from '../shared/cliEnv';
import { cliReadiness } from '../shared/cliReadiness';
import { runCliLane, type CliLaneSpec } from '../shared/runCliLane';
import { cursorAgentManifest } from './manifest';
import { CursorStreamEvent } from './streamSchema';
import { cursorTranslator } from './translate';

/**
 * `cursor-agent -p --output-format stream-json --force --trust [--model M]
 * [--resume <chatId>] [extraArgs] <prompt>`: print mode applies edits and
 * runs commands only with --force, and a headless run must trust the
 * workspace (--trust). The prompt is an argument (the form Cursor documents
 * for print mode). The binary is `cursor-agent`, or `agent` as newer
 * installers name it.
 */
const spec: CliLaneSpec<CursorStreamEvent> = {
  laneId: cursorAgentManifest.id,
  cli: 'cursor-agent',
  product: 'Cursor Agent',
  binaryNames: ['cursor-agent', 'agent'],
  secretEnv: (secrets) => pickSecrets(secrets, { CURSOR_API_KEY: 'CURSOR_API_KEY' }),
  invocation: ({ settings, prompt, sessionId, review }) => ({
    args: [
      '-p',
      '--output-format',
      'stream-json',
      // Without --force print mode only proposes changes: what a review wants.
      ...(review ? [] : ['--force']),
      '--trust',
      ...(settings.model ? ['--model', settings.model] : []),
      ...(sessionId ? ['--resume', sessionId] : []),
      ...settings.extraArgs,
      prompt,
    ],
  }),
  schema: CursorStreamEvent,
  translator: cursorTranslator,
};

/** The `cursor-agent` lane: Cursor's headless agent CLI. */
export function createCursorAgentLane(): LanePlugin {
  return {
    manifest: cursorAgentManifest,
    run: (input) => runCliLane(spec, input),
    readiness: cliReadiness(spec.laneId, spec.product, spec.binaryNames),
  };
}
