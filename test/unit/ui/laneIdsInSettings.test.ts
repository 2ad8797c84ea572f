import assert from 'node:assert/strict';
import { laneIdsIn } from '../../../src/ui/config/laneIdsInSettings';

describe("the lanes a folder's settings.json sets (for the Restricted Mode wording)", () => {
  it('reads the lane ids under switchyard.lanes, comments and trailing commas allowed', () => {
    const text = `{
  // the agent
  "switchyard.lanes": { "command": { "command": "./agent.sh // not a comment" }, /* off */ },
  "editor.tabSize": 2,
}`;
    assert.deepEqual([...laneIdsIn(text)], ['command']);
  });

  it('gives none without the setting or for text that does not parse', () => {
    assert.equal(laneIdsIn('{"editor.tabSize": 2}').size, 0);
    assert.equal(laneIdsIn('{"switchyard.lanes": {"command": ').size, 0);
  });
});
