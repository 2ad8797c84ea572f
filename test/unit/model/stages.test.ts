import assert from 'node:assert/strict';
import { STAGES, isStage, perStage } from '../../../src/core/model/stages';
import { TASK_STATES } from '../../../src/core/model/taskStates';
import type { PanelTask } from '../../../src/core/panel/panelProtocol';
import { WipLimits } from '../../../src/core/store/orchestratorSettings';
import { tabsOf } from '../../../webview/panelStore';

/** One list of the pipeline's stages, and one meaning of "active": in a stage, a pull request waiting for CI too. */
describe('the stages', () => {
  it('are task states, each with a WIP limit, and perStage has exactly them', () => {
    for (const stage of STAGES) assert.ok((TASK_STATES as readonly string[]).includes(stage), stage);
    assert.deepEqual(Object.keys(WipLimits.parse({})).sort(), [...STAGES].sort());
    assert.deepEqual(Object.keys(perStage(0)), [...STAGES]);
    assert.deepEqual(
      TASK_STATES.filter((s) => isStage(s)),
      [...STAGES],
    );
  });

  it("the panel's active tab lists a task in every stage, AWAITING_CI included, and no other", () => {
    for (const state of TASK_STATES) {
      const tabs = tabsOf({ state } as PanelTask);
      assert.equal(tabs.includes('active'), isStage(state), state);
    }
  });
});
