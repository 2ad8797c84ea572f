import assert from 'node:assert/strict';
import { quickPickText } from '../../../src/ui/prompts/quickPickText';

describe('quickPickText', () => {
  it('keeps `$(…)` as written (escaped for VS Code) and makes the text one plain line', () => {
    assert.equal(quickPickText('run `/opt/cli $(id)/claude auth login`'), 'run `/opt/cli \\$(id)/claude auth login`');
    assert.equal(quickPickText('a\nb\u001b[31m red\u202e'), 'a b red<U+202E>');
    assert.equal(quickPickText('no icons here: $HOME (ok)'), 'no icons here: $HOME (ok)');
  });
});
