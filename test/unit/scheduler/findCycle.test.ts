import assert from 'node:assert/strict';
import { describeCycle, findCycle } from '../../../src/core/scheduler/findCycle';

describe('dependency cycle detection', () => {
  it('names the cycle as a path that comes back to its start', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    const cycle = findCycle(g)!;
    assert.deepEqual(cycle, ['a', 'b', 'c', 'a']);
    assert.equal(
      describeCycle(cycle, (id) => id.toUpperCase()),
      'dependency cycle: A → B → C → A',
    );
  });

  it('finds a self-dependency and ignores edges to unknown tasks', () => {
    assert.deepEqual(findCycle(new Map([['a', ['a']]])), ['a', 'a']);
    assert.equal(
      findCycle(
        new Map([
          ['a', ['t1', 'b']],
          ['b', []],
        ]),
      ),
      undefined,
    );
  });

  it('accepts a diamond and a 100 000-deep chain (no recursion)', () => {
    assert.equal(
      findCycle(
        new Map([
          ['a', []],
          ['b', ['a']],
          ['c', ['a']],
          ['d', ['b', 'c']],
        ]),
      ),
      undefined,
    );
    const chain = new Map<string, string[]>();
    for (let i = 0; i < 100_000; i++) chain.set(`n${i}`, i ? [`n${i - 1}`] : []);
    assert.equal(findCycle(chain), undefined);
    chain.set('n0', ['n99999']);
    assert.equal(findCycle(chain)!.length, 100_001);
  });
});
