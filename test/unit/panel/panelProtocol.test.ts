import * as assert from 'node:assert/strict';
import { HostMessage, WebviewMessage, describeIssue } from '../../../src/core/panel/panelProtocol';

describe('panel protocol (zod/mini, validated on both sides)', () => {
  it('accepts the webview messages the panel sends', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'ready', selected: 't3' },
      { type: 'select', taskId: null },
      { type: 'command', command: 'retryTask', taskId: 't3' },
      { type: 'command', command: 'showRunDiff', runId: 't3.2' },
      { type: 'command', command: 'openWorktree', runId: 't3.2' },
    ])
      assert.equal(WebviewMessage.safeParse(m).success, true, JSON.stringify(m));
  });

  it('rejects unknown commands, unknown types and extra fields, naming the field', () => {
    const bad = WebviewMessage.safeParse({ type: 'command', command: 'rm -rf', taskId: 't1' });
    assert.equal(bad.success, false);
    if (!bad.success) assert.match(describeIssue(bad.error), /^command: /);
    assert.equal(WebviewMessage.safeParse({ type: 'eval', code: '1' }).success, false);
    assert.equal(WebviewMessage.safeParse({ type: 'ready', extra: true }).success, false);
  });

  it('rejects a host patch whose task has a state that does not exist', () => {
    const bad = HostMessage.safeParse({
      type: 'patch',
      seq: 2,
      base: 1,
      remove: [],
      sections: {},
      upsert: [
        {
          id: 't1',
          n: 1,
          title: 'x',
          state: 'EXPLODED',
          lane: 'command',
          laneOverride: false,
          priority: 50,
          attempts: 0,
          since: 'now',
          runs: 0,
        },
      ],
    });
    assert.equal(bad.success, false);
    if (!bad.success) assert.match(describeIssue(bad.error), /^upsert\.0\.state: /);
  });
});
