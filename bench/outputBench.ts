import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LaneRegistry } from '../src/core/lanes/laneRegistry';
import { eventsPath } from '../src/core/store/runFiles';
import { Project } from '../src/core/project/project';
import { runMeasured } from '../test/helpers/peakRss';

const MiB = 1024 * 1024;

/**
 * Lane output through the whole CLI process (dist/cli.js run, command lane):
 * an idle run, then 10 MB and 50 MB of short lines (`seq`) and 50 MB on one
 * line. Printed against baselines measured in the same run: wall time per
 * MB of output against the idle run, peak RSS above the idle run's, and
 * events.jsonl against the cap. Targets: peak RSS ≤ idle + 50 MB; time
 * linear (50 MB ÷ 10 MB ≤ ~5×); events.jsonl ≤ cap + a little.
 */
export async function benchOutput(): Promise<void> {
  const cli = resolve('dist/cli.js');
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-output-'));
  try {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    execFileSync(
      'git',
      ['-c', 'user.name=b', '-c', 'user.email=b@localhost', 'commit', '-q', '--allow-empty', '-m', 'init'],
      { cwd: dir },
    );
    const project = await Project.open(dir, { registry: new LaneRegistry() });
    await project.settings.update((s) => {
      s.retryCaps.command = 1;
    });
    let n = 0;
    const run = async (command: string) => {
      await project.settings.update((s) => {
        s.laneSettings.command = { command };
      });
      await project.tasks.add({ title: `output ${++n}` });
      const r = await runMeasured([cli, 'run', '--repo', dir]);
      if (r.exitCode !== 0) throw new Error(`run failed: ${r.stderr}`);
      const size = (await stat(eventsPath(dir, `t${n}.1`))).size;
      return { ms: r.elapsedMs, peak: r.peakKiB / 1024, size };
    };
    const idle = await run('exit 0');
    console.log(`idle run: ${(idle.ms / 1000).toFixed(2)} s, peak RSS ${idle.peak.toFixed(1)} MiB (the baseline)`);
    const cases = [
      ['10 MB of short lines', 'seq 1 1400000', 9.6],
      ['50 MB of short lines', 'seq 1 6450000', 48.2],
      ['50 MB on one line', "head -c 50000000 /dev/zero | tr '\\0' x; echo", 47.7],
    ] as const;
    const times: number[] = [];
    for (const [name, command, mib] of cases) {
      const r = await run(command);
      times.push(r.ms);
      console.log(
        `${name.padEnd(22)} ${(r.ms / 1000).toFixed(2).padStart(6)} s (${(r.ms / idle.ms).toFixed(1)}× ` +
          `idle, ${((r.ms - idle.ms) / mib).toFixed(0)} ms/MiB above idle)  peak RSS +${(r.peak - idle.peak).toFixed(1)} MiB over idle (target ≤ 50)  events.jsonl ${(r.size / MiB).toFixed(2)} MiB (cap 10 MiB)`,
      );
    }
    console.log(
      `time, 50 MB ÷ 10 MB of lines: ${(times[1]! / times[0]!).toFixed(2)}× for ${(48.2 / 9.6).toFixed(1)}× the output (linear or better)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
benchOutput.title = 'Lane output: 10 and 50 MB through the CLI, time and peak memory against an idle run';
