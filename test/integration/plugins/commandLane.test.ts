import assert from 'node:assert/strict';
import { createCommandLane } from '../../../plugins/command';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { LaneEvent } from '../../../src/api';
import { makeTempDir } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

describe('command lane', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.cleanup());

  const run = (settings: Record<string, unknown>, signal = new AbortController().signal) => {
    const events: LaneEvent[] = [];
    const result = createCommandLane().run({
      task: { id: 't1', title: 'T', spec: 'line one\nline two', files: [] },
      workspaceDir: tmp.dir,
      env: { PATH: process.env.PATH ?? '' },
      attempt: { runId: 't1.1', attempt: 1 },
      settings,
      secrets: {},
      signal,
      emit: (e) => events.push(e),
      call: () => Promise.reject(new Error('the command lane makes no durable calls')),
    });
    return { result, events };
  };

  it('has a manifest the registry accepts', () => {
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    assert.equal(registry.require('command').manifest.kind, 'command');
  });

  it('streams stdout and stderr lines as log events', async () => {
    const { result, events } = run({ command: 'cat; echo oops >&2' });
    assert.deepEqual(await result, { status: 'succeeded', summary: '`cat; echo oops >&2` exited 0' });
    assert.deepEqual(
      events
        .filter((e) => e.type === 'log')
        .map((e) => e.type === 'log' && `${e.stream}:${e.line}`)
        .sort(),
      ['stderr:oops', 'stdout:line one', 'stdout:line two'],
    );
  });

  it('fails with the exit code and the last stderr lines', async () => {
    const { result } = run({ command: 'for i in 1 2 3 4 5 6 7; do echo "err $i" >&2; done; exit 4' });
    const r = await result;
    assert.equal(r.status, 'failed');
    assert.equal(
      r.failureReason,
      '`for i in 1 2 3 4 5 6 7; do echo "err $i" >&2; done; exit 4` failed with exit code 4; stderr: err 3 | err 4 | err 5 | err 6 | err 7',
    );
  });

  it('explains a missing command setting', async () => {
    const r = await run({}).result;
    assert.equal(r.status, 'failed');
    assert.match(r.failureReason!, /lane "command" is misconfigured: the command lane needs a "command" setting/);
  });

  it('kills the command on abort', async () => {
    const abort = new AbortController();
    const { result, events } = run({ command: 'echo started; exec sleep 20' }, abort.signal);
    await until('the command to start', () => events.some((e) => e.type === 'log' && e.line === 'started'));
    abort.abort();
    const started = Date.now();
    const r = await result;
    assert.equal(r.status, 'failed');
    assert.match(r.failureReason!, /signal SIGTERM/);
    assert.ok(Date.now() - started < 5_000);
  });

  it('reads the output through the line splitter: a 5 MB line of a real process arrives cut at 1 MiB', async () => {
    const { result, events } = run({ command: "head -c 5000000 /dev/zero | tr '\\0' q; echo; echo done" });
    assert.equal((await result).status, 'succeeded');
    const lines = events.filter((e) => e.type === 'log').map((e) => (e.type === 'log' ? e.line : ''));
    assert.deepEqual(lines, [
      `${'q'.repeat(1024 * 1024)} … [line cut: ${5_000_000 - 1024 * 1024} more bytes not kept]`,
      'done',
    ]);
  });
});
