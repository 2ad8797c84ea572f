import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { classify } from '../../../src/core/retry/classifyError';

const run = promisify(execFile);

/** A real shell's failure text for a command line, in the shape the command lane reports it. */
async function commandLaneReason(command: string): Promise<string> {
  try {
    await run('/bin/sh', ['-c', command]);
    throw new Error(`${command} succeeded`);
  } catch (error) {
    const e = error as { code?: number; stderr?: string };
    return `\`${command}\` failed with exit code ${e.code}; stderr: ${(e.stderr ?? '').trim()}`;
  }
}

describe('classify: the permanent shapes of a lane that cannot work as set up', () => {
  it('a command the shell cannot find (its real stderr and exit 127) is command-not-found', async () => {
    const reason = await commandLaneReason('definitely-not-an-installed-agent-cli --version');
    assert.match(reason, /exit code 127/);
    assert.deepEqual([classify(reason).class, classify(reason).rule], ['permanent', 'command-not-found']);
  });
});
