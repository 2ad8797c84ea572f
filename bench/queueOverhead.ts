import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { Project } from '../src/core/project/project';
import { registryWithBuiltins } from '../src/lanes/builtinLanes';
import { initRepo } from '../test/helpers/repoGit';

const TASKS = 20;
const COMMAND = 'echo change > out.txt';

/**
 * Per-task cost of the harness (store, worktree, lane containment, diff
 * capture, logs) against the raw work it wraps: `git worktree add`, the same
 * shell command, `git add` + `git commit` + `git diff`, done by hand in a loop.
 */
export async function benchQueueOverhead(): Promise<void> {
  const raw = await timeIt(rawLoop);
  const harness1 = await timeIt((dir) => harnessLoop(dir, 1));
  const harness2 = await timeIt((dir) => harnessLoop(dir, 2));
  console.log(`${TASKS} tasks, command lane running \`${COMMAND}\``);
  console.log(`raw git+shell loop (baseline)   ${fmt(raw)}  1.00x`);
  console.log(`switchyard run, concurrency 1   ${fmt(harness1)}  ${(harness1 / raw).toFixed(2)}x`);
  console.log(`switchyard run, concurrency 2   ${fmt(harness2)}  ${(harness2 / raw).toFixed(2)}x`);
}
benchQueueOverhead.title = 'Queue overhead per task vs a raw git worktree + shell loop';

function fmt(ms: number): string {
  return `${(ms / TASKS).toFixed(1).padStart(7)} ms/task`;
}

async function timeIt(body: (dir: string) => Promise<void>): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
  try {
    await writeFile(join(dir, 'README.md'), '# bench\n');
    await initRepo(dir, 'initial', 'Bench');
    const started = performance.now();
    await body(dir);
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function rawLoop(dir: string): Promise<void> {
  const base = (await execa('git', ['rev-parse', 'HEAD'], { cwd: dir })).stdout;
  for (let i = 0; i < TASKS; i++) {
    const wt = join(dir, '.wt', String(i));
    await execa('git', ['worktree', 'add', '-q', '-b', `raw/${i}`, wt, base], { cwd: dir });
    await execa(COMMAND, { cwd: wt, shell: true });
    await execa('git', ['add', '-A'], { cwd: wt });
    await execa('git', ['commit', '-q', '--no-verify', '-m', 'raw'], { cwd: wt });
    await execa('git', ['diff', base, 'HEAD'], { cwd: wt });
  }
}

async function harnessLoop(dir: string, concurrency: number): Promise<void> {
  const project = await Project.open(dir, { registry: registryWithBuiltins() });
  await project.settings.update((s) => {
    s.laneSettings.command = { command: COMMAND };
  });
  await project.tasks.addMany(Array.from({ length: TASKS }, (_, i) => ({ title: `task ${i}` })));
  await project.runQueue({ concurrency });
  const state = await project.state();
  if (!state.tasks.every((t) => t.state === 'DONE')) throw new Error('bench tasks did not all finish');
}
