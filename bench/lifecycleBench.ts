import { lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../src/core/project/project';
import { registryWithBuiltins } from '../src/lanes/builtinLanes';
import { formatBytes } from '../src/core/text/formatBytes';
import { initRepo } from '../test/helpers/repoGit';

/** Tasks per measurement: `SWITCHYARD_BENCH_LIFECYCLE_TASKS` (default 1,000); figures are also given per 1,000. */
const TASKS = Number(process.env.SWITCHYARD_BENCH_LIFECYCLE_TASKS ?? 1000);
const COMMAND = 'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"';
const PLACES = ['.git/worktrees', '.switchyard', '.git'] as const;

/**
 * Disk left behind by integrated one-file tasks: the same queue run twice on fresh repositories, once keeping every
 * integrated run's worktree (the behaviour before worktrees were removed at integration: the baseline) and once
 * removing them. Sizes are disk blocks (`st_blocks`), as `du` counts them.
 */
export async function benchLifecycle(): Promise<void> {
  const before = await measure(true);
  const after = await measure(false);
  const scale = 1000 / TASKS;
  console.log(`${TASKS} integrated one-file tasks, command lane \`${COMMAND}\`, concurrency 4`);
  console.log(`${'place'.padEnd(16)}${'kept (baseline)'.padStart(18)}${'removed'.padStart(14)}${'ratio'.padStart(8)}`);
  for (const place of PLACES) {
    const b = before.bytes[place];
    const a = after.bytes[place];
    console.log(
      `${place.padEnd(16)}${formatBytes(b * scale).padStart(18)}${formatBytes(a * scale).padStart(14)}` +
        `${(a / b).toFixed(2).padStart(7)}x`,
    );
  }
  console.log(
    `sizes per 1,000 tasks; worktrees left after ${TASKS}: ${before.worktrees} kept, ${after.worktrees} removed`,
  );
  console.log(`wall time: ${(before.ms / 1000).toFixed(1)} s kept, ${(after.ms / 1000).toFixed(1)} s removed`);
}
benchLifecycle.title = 'Worktree lifecycle: disk per 1,000 integrated one-file tasks, worktrees kept vs removed';

export async function measure(
  keep: boolean,
): Promise<{ bytes: Record<string, number>; worktrees: number; ms: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
  try {
    await writeFile(join(dir, 'README.md'), '# bench\n');
    await initRepo(dir, 'initial', 'Bench');
    const project = await Project.open(dir, {
      registry: registryWithBuiltins(),
      hookCommand: null,
      keepIntegratedWorktrees: keep,
    });
    await project.settings.update((s) => {
      s.laneSettings.command = { command: COMMAND };
      s.wip.VERIFYING = 4;
    });
    await project.tasks.addMany(Array.from({ length: TASKS }, (_, i) => ({ title: `one file ${i}` })));
    const started = performance.now();
    await project.runQueue({ concurrency: 4 });
    const ms = performance.now() - started;
    const state = await project.state();
    const integrated = state.tasks.filter((t) => t.state === 'DONE' && t.integration).length;
    if (integrated !== TASKS) throw new Error(`only ${integrated} of ${TASKS} bench tasks were integrated`);
    const bytes: Record<string, number> = {};
    for (const place of PLACES) bytes[place] = await diskBytes(join(dir, place));
    const worktrees = (await readdir(join(dir, '.switchyard', 'worktrees')).catch(() => [])).length;
    await project.close();
    return { bytes, worktrees, ms };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function diskBytes(path: string): Promise<number> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return 0;
  let total = info.blocks * 512;
  if (info.isDirectory()) for (const child of await readdir(path)) total += await diskBytes(join(path, child));
  return total;
}
