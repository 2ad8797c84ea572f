import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { eventsPath, readRunLog } from '../../../src/core/store/runFiles';
import { buildCliBundle } from '../../helpers/cliBundle';
import { runMeasured } from '../../helpers/peakRss';
import { makeTempRepo } from '../../helpers/tempRepo';

const MiB = 1024 * 1024;
const CAP = 10 * MiB;
/** Bytes `seq 1 n` prints. */
function seqBytes(n: number): number {
  let total = 0;
  for (let digits = 1, from = 1; from <= n; digits++, from *= 10)
    total += (Math.min(n, from * 10 - 1) - from + 1) * (digits + 1);
  return total;
}
/** The n for which `seq 1 n` prints about `bytes`. */
function seqFor(bytes: number): number {
  let n = 1;
  while (seqBytes(n * 2) < bytes) n *= 2;
  let lo = n;
  let hi = n * 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (seqBytes(mid) < bytes) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * A command lane that prints 50 MB, as many short lines (the worst case for
 * per-line overhead) or as one line, run by the real CLI process: the run's
 * events.jsonl stays within the default cap with its head, its tail and a
 * marker counting what was dropped; peak memory stays within 50 MB of an idle
 * run's, and time grows linearly with the output.
 */
describe('bounded lane output (real CLI process, real command lane)', function () {
  this.timeout(300_000);
  let cli: string;
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let project: Project;
  let n = 0;
  before(async () => {
    cli = await buildCliBundle();
    repo = await makeTempRepo();
    project = await Project.open(repo.dir, { registry: new LaneRegistry() });
    await project.settings.update((s) => {
      s.retryCaps.command = 1;
    });
  });
  after(async () => {
    await repo.cleanup();
    await rm(join(cli, '..'), { recursive: true, force: true });
  });

  /** One task on the command lane with `command`, run by a fresh CLI process. */
  async function runCommand(command: string) {
    await project.settings.update((s) => {
      s.laneSettings.command = { command };
    });
    const task = await project.tasks.add({ title: `output ${++n}` });
    const run = await runMeasured([cli, 'run', '--repo', repo.dir]);
    assert.equal(run.exitCode, 0, run.stderr);
    const state = await project.state();
    assert.equal(state.tasks.find((t) => t.id === task.id)!.state, 'DONE');
    const runId = state.runs.find((r) => r.taskId === task.id)!.id;
    const file = eventsPath(repo.dir, runId);
    return { ...run, file, size: (await stat(file)).size, log: await readRunLog(file) };
  }

  const figures: Record<string, { mib: number; ms: number; peakMiB: number }> = {};
  let idlePeak = 0;

  it('an idle run (the baseline)', async () => {
    const idle = await runCommand('exit 0');
    idlePeak = idle.peakKiB / 1024;
    assert.ok(idlePeak > 10, `peak RSS measured: ${idlePeak} MiB`);
  });

  for (const [name, bytes] of [
    ['12.5 MB', 12.5e6],
    ['50 MB', 50e6],
  ] as const) {
    it(`${name} of short lines: head, tail and a dropped-lines marker within the cap; memory bounded`, async () => {
      const last = seqFor(bytes);
      const r = await runCommand(`seq 1 ${last}`);
      figures[name] = { mib: seqBytes(last) / MiB, ms: r.elapsedMs, peakMiB: r.peakKiB / 1024 };
      const lines = r.log.filter((l) => l.type === 'lane').map((l) => (l.event as { line: string }).line);
      const dropped = r.log.filter((l) => l.type === 'output-dropped') as unknown as { lines: number; bytes: number }[];
      const droppedLines = dropped.reduce((sum, d) => sum + d.lines, 0);
      assert.ok(r.size <= CAP + 64 * 1024, `events.jsonl ${r.size} bytes is within the cap ${CAP} and a little`);
      assert.ok(r.size >= CAP * 0.9, `events.jsonl ${r.size} bytes keeps about the cap`);
      // Every line is either stored (in order) or counted as dropped: the head starts at 1, the tail ends at the last.
      assert.equal(dropped.length, 1, 'one dropped marker');
      assert.equal(lines.length + droppedLines, last, 'stored + dropped = every line printed');
      const head = lines.findIndex((l, i) => Number(l) !== i + 1);
      assert.ok(head > 0, 'the head is stored from line 1');
      assert.deepEqual(
        lines.slice(head).map(Number),
        Array.from({ length: lines.length - head }, (_, i) => last - (lines.length - head) + 1 + i),
        'the tail runs to the last line',
      );
      // In the file: the head, the notice that the head is full, then (when the lane ends) the marker and the tail.
      const markerAt = r.log.findIndex((l) => l.type === 'output-dropped');
      const notice = r.log.findIndex(
        (l) => l.type === 'decision' && /^lane output passed 5\.0 MiB/.test(String(l.message)),
      );
      assert.ok(notice > 0 && notice < markerAt, 'the head-full notice comes before the marker');
      assert.equal(
        Number((r.log[notice - 1]!.event as { line: string }).line),
        head,
        'the head ends just before the notice',
      );
      assert.equal(
        Number((r.log[markerAt + 1]!.event as { line: string }).line),
        last - (lines.length - head) + 1,
        'the tail starts just after the marker',
      );
      assert.match(
        String((r.log[markerAt] as { message?: unknown }).message),
        new RegExp(`^${droppedLines} line\\(s\\) of lane output .* dropped here`),
      );
      assert.ok(
        r.peakKiB / 1024 - idlePeak <= 50 + 15,
        `peak RSS ${(r.peakKiB / 1024).toFixed(1)} MiB vs idle ${idlePeak.toFixed(1)} MiB`,
      );
    });
  }

  it('time grows linearly with the output (50 MB vs 12.5 MB: ratio < 8)', () => {
    const small = figures['12.5 MB'];
    const large = figures['50 MB'];
    assert.ok(small && large, 'both runs measured');
    const ratio = large.ms / small.ms;
    console.log(
      `      idle peak ${idlePeak.toFixed(1)} MiB; ${small.mib.toFixed(1)} MiB of lines: ` +
        `${(small.ms / 1000).toFixed(1)} s, peak ${small.peakMiB.toFixed(1)} MiB; ${large.mib.toFixed(1)} ` +
        `MiB: ${(large.ms / 1000).toFixed(1)} s, peak ${large.peakMiB.toFixed(1)} MiB; time ratio ${ratio.toFixed(2)} for 4x the output`,
    );
    assert.ok(ratio < 8, `time ratio ${ratio.toFixed(2)}`);
  });

  it('50 MB on one line: the line is cut at 64 KiB with a marker; memory bounded', async () => {
    const r = await runCommand(`head -c 50000000 /dev/zero | tr '\\0' x; echo; echo after`);
    const lines = r.log.filter((l) => l.type === 'lane').map((l) => (l.event as { line: string }).line);
    assert.equal(lines.length, 2);
    assert.equal(lines[0], `${'x'.repeat(64 * 1024)} … [line cut: ${50_000_000 - 64 * 1024} more bytes not kept]`);
    assert.equal(lines[1], 'after');
    assert.ok(r.size < 100 * 1024, `events.jsonl ${r.size} bytes`);
    assert.ok(
      r.peakKiB / 1024 - idlePeak <= 50 + 15,
      `peak RSS ${(r.peakKiB / 1024).toFixed(1)} MiB vs idle ${idlePeak.toFixed(1)} MiB`,
    );
  });
});
