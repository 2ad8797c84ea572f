import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

interface Stored {
  tasks: { id: string; state: string; attempts: number }[];
  runs: { id: string; attempt: number; state: string; failureCode?: string }[];
}

describe('attempt numbers and cancels, as recorded', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir]);
  const stored = async (): Promise<Stored> =>
    JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('go on across Retry Task: the run after a retry is attempt 3, not 1 again', async function () {
    this.timeout(120_000);
    await cli('lanes', 'set', 'command', 'command=echo broken >&2; exit 7');
    await cli('lanes', 'cap', 'command', '2');
    assert.equal((await cli('config', 'set', 'retryBackoff.initialMs', '0', '--local')).code, 0);
    await cli('task', 'add', '--title', 'fails', '--spec', 'x');
    assert.equal((await cli('run')).code, 1);
    assert.equal((await cli('retry', 't1')).code, 0);
    // One attempt this time (a lane failing three times in a row trips its circuit breaker).
    await cli('lanes', 'cap', 'command', '1');
    assert.equal((await cli('run')).code, 1);
    const state = await stored();
    assert.deepEqual(
      state.runs.map((r) => [r.id, r.attempt]),
      [
        ['t1.1', 1],
        ['t1.2', 2],
        ['t1.3', 3],
      ],
    );
    assert.equal(state.tasks[0]!.attempts, 1, 'the budget itself starts afresh with the retry');
  });

  it('a task canceled while it runs leaves its run CANCELED, code canceled, not an unknown failure', async () => {
    await cli('lanes', 'set', 'command', 'command=sleep 30');
    await cli('task', 'add', '--title', 'slow', '--spec', 'x');
    const running = cli('run');
    await until('the run to start', async () => ((await stored().catch(() => undefined))?.runs.length ?? 0) > 0);
    assert.equal((await cli('cancel', 't1')).code, 0);
    await running;
    const run = (await stored()).runs[0]!;
    assert.equal(run.state, 'CANCELED');
    assert.equal(run.failureCode, 'canceled');
  });
});
