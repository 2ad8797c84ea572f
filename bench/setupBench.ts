import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Run } from '../src/core/model/run';
import { Project } from '../src/core/project/project';
import { registryWithBuiltins } from '../src/lanes/builtinLanes';
import { initRepo } from '../test/helpers/repoGit';

const PACKAGES = 8;
const FILES_PER_PACKAGE = 40;
const PARALLEL = 4;
const SETUP = 'npm ci --offline --no-audit --no-fund --silent';

/**
 * Worktree setup with and without the setup cache: a Node project whose
 * dependencies (8 local packages, 40 files each: 336 files in node_modules)
 * install with `npm ci --offline`. Waves of 4 parallel runs: the first wave
 * on a cold cache (one run installs and stores, the others wait for it and
 * restore), the second on the warm cache (every run restores), and a wave
 * with the cache off (every run installs). The baseline is the setup time
 * of the first wave's installing run.
 */
export async function benchSetup(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-setup-'));
  try {
    const repo = await makeProject(dir);
    const cold = await wave(repo, 'cold', true);
    const warm = await wave(repo, 'warm', true);
    const off = await wave(repo, 'off', false);
    const first = cold.find((r) => r.setup?.cache === 'stored');
    if (!first?.setup) throw new Error('no run stored the setup cache');
    const base = first.setup.durationMs;
    const line = (label: string, ms: number) =>
      console.log(`${label.padEnd(52)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${(ms / base).toFixed(2)}x`);
    console.log(`${PARALLEL} parallel runs per wave, setup \`${SETUP}\`, ${PACKAGES * (FILES_PER_PACKAGE + 2)} files`);
    line('first run: install + store (baseline)', base);
    for (const r of cold.filter((x) => x !== first))
      line(`cold wave, cache hit after waiting ${((r.setup!.waitMs ?? 0) / 1000).toFixed(1)} s`, r.setup!.durationMs);
    const hits = warm.map((r) => r.setup!.durationMs).sort((a, b) => a - b);
    for (const ms of hits) line('warm wave, cache hit', ms);
    for (const r of off) line('cache off, install', r.setup!.durationMs);
    const median = hits[Math.floor(hits.length / 2)]!;
    console.log(
      `cache hit ÷ first run (median of the warm wave): ${((median / base) * 100).toFixed(1)} % (target ≤ 25 %)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
benchSetup.title = 'Worktree setup: a setup-cache hit vs the first run (4 parallel runs)';

async function wave(repo: string, name: string, cache: boolean): Promise<Run[]> {
  const project = await Project.open(repo, { registry: registryWithBuiltins() });
  await project.settings.update((s) => {
    s.laneSettings.command = { command: 'echo work > work.txt' };
    s.integration.enabled = false;
    s.worktree.setup = [SETUP];
    s.worktree.setupCache = cache;
  });
  const added = await project.tasks.addMany(
    Array.from({ length: PARALLEL }, (_, i) => ({ title: `${name} ${i}`, acceptance: 'npm test --silent' })),
  );
  await project.runQueue({ concurrency: PARALLEL });
  const state = await project.state();
  const ids = new Set(added.map((t) => t.id));
  const runs = state.runs.filter((r) => ids.has(r.taskId));
  const failed = runs.find((r) => r.state !== 'SUCCEEDED' || !r.setup);
  if (failed) throw new Error(`bench run ${failed.id} ${failed.state}: ${failed.failureReason}`);
  return runs;
}

async function makeProject(dir: string): Promise<string> {
  const repo = join(dir, 'repo');
  await mkdir(repo);
  const deps: Record<string, string> = {};
  for (let p = 0; p < PACKAGES; p++) {
    const src = join(dir, `dep${p}`);
    await mkdir(join(src, 'lib'), { recursive: true });
    await writeFile(join(src, 'package.json'), JSON.stringify({ name: `dep${p}`, version: '1.0.0', main: 'index.js' }));
    await writeFile(join(src, 'index.js'), `module.exports = ${p};\n`);
    for (let f = 0; f < FILES_PER_PACKAGE; f++)
      await writeFile(join(src, 'lib', `m${f}.js`), `module.exports = ${f}; // ${'x'.repeat(2000)}\n`);
    execFileSync('npm', ['pack', '--silent', '--pack-destination', repo], { cwd: src, stdio: 'pipe' });
    deps[`dep${p}`] = `file:dep${p}-1.0.0.tgz`;
  }
  const load = "require(require('path').join(__dirname, 'node_modules', 'dep' + p))";
  const test = `for (let p = 0; p < ${PACKAGES}; p++) ${load};`;
  await writeFile(join(repo, 'test.js'), `${test}\n`);
  await writeFile(
    join(repo, 'package.json'),
    JSON.stringify({
      name: 'bench',
      version: '1.0.0',
      private: true,
      scripts: { test: 'node test.js' },
      dependencies: deps,
    }),
  );
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent'], { cwd: repo, stdio: 'pipe' });
  await writeFile(join(repo, '.gitignore'), 'node_modules/\n');
  await initRepo(repo, 'bench project', 'Bench');
  return repo;
}
