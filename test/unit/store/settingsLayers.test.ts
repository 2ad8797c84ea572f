import assert from 'node:assert/strict';
import { isCommandKey } from '../../../src/core/store/settingsLayers';

describe('isCommandKey (what an untrusted committed config may not set)', () => {
  it('gates every key that makes Switchyard run something', () => {
    for (const key of [
      'laneSettings.command.command',
      'laneSettings.command.reviewCommand',
      'laneSettings.claude-code.binary',
      'laneModules',
      'secretCommands.ANTHROPIC_API_KEY',
      'worktree.setup',
    ]) {
      assert.equal(isCommandKey(key), true, key);
    }
  });

  it('leaves settings about those alone', () => {
    for (const key of [
      'worktree.setupTimeoutSeconds',
      'worktree.setupCache',
      'worktree.copy',
      'wip.RUNNING',
      'leaseMs',
    ]) {
      assert.equal(isCommandKey(key), false, key);
    }
  });
});
