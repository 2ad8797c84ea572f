import assert from 'node:assert/strict';
import { main } from '../../../src/cli/main';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('switchyard canary (CLI)', () => {
  it('starts, reports, lists and rolls back a canary', async () => {
    const repo = await makeTempRepo();
    try {
      const out: string[] = [];
      const err: string[] = [];
      const cli = (...args: string[]) =>
        main([...args, '--repo', repo.dir], {
          cwd: repo.dir,
          env: { ...process.env },
          out: (t) => out.push(t),
          err: (t) => err.push(t),
        });
      assert.equal(await cli('canary', 'start', '--lane', 'nope'), 1);
      assert.match(err.join('\n'), /unknown lane "nope"; registered lanes: command/);
      assert.equal(await cli('canary', 'start', '--lane', 'command'), 1);
      assert.match(err.join('\n'), /already the project's default lane/);
      assert.equal(await cli('canary', 'report'), 1);
      assert.match(err.join('\n'), /no canary is running/);
      assert.equal(await cli('canary', 'start', '--lane', 'command', '--window', 'soon'), 2);
      assert.equal(await cli('canary', 'history'), 0);
      assert.match(out.join('\n'), /No routing changes recorded/);
    } finally {
      await repo.cleanup();
    }
  });
});
