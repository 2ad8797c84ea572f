import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { setTrust } from '../../src/cli/trustedWorkspaces';
import { Project } from '../../src/core/project/project';
import { LaneRegistry } from '../../src/core/lanes/laneRegistry';
import type { ProjectSettings } from '../../src/core/store/projectState';
import { makeTempRepo } from './tempRepo';

/**
 * The crash lane (test/fixtures/lanes/crashLane.mjs): 6 steps of a model call ($0.01 each), a safe tool and a `never`
 * tool.
 */
export const CRASH_LANE = resolve('test/fixtures/lanes/crashLane.mjs');

/**
 * A trusted temp repository whose default lane is the crash lane, with one
 * task, and `sy` to run the bundled CLI on it as a real process (CRASH_AT in
 * its environment makes the lane SIGKILL it). The lane counts every side
 * effect in files outside the worktree: `count('never-3')`.
 */
export async function crashProject(cli: string, settings: (s: ProjectSettings) => void = () => undefined) {
  const repo = await makeTempRepo();
  const side = `${repo.dir}-side`;
  const counts = join(side, 'counts');
  const config = { XDG_CONFIG_HOME: join(side, 'config') };
  await setTrust(repo.dir, true, config);
  const sy = (args: string[], env: Record<string, string> = {}) =>
    execa('node', [cli, ...args, '--repo', repo.dir], { reject: false, env: { ...config, ...env }, extendEnv: true });
  const project = await Project.open(repo.dir, { registry: new LaneRegistry() });
  await project.settings.update((s) => {
    Object.assign(s, {
      laneModules: [CRASH_LANE],
      defaultLane: 'crash',
      leaseMs: 60_000,
      laneSettings: { crash: { countsDir: counts } },
    });
    settings(s);
  });
  await project.tasks.add({ title: 'crash test' });
  const stateFile = join(repo.dir, '.switchyard', 'state.json');
  const readState = async () => JSON.parse(await readFile(stateFile, 'utf8'));
  const count = (name: string) =>
    existsSync(join(counts, name)) ? readFileSync(join(counts, name), 'utf8').trim().split('\n').length : 0;
  const runDir = (runId: string) => join(repo.dir, '.switchyard', 'runs', runId);
  const cleanup = async () => {
    await project.close();
    await repo.cleanup();
    await rm(side, { recursive: true, force: true });
  };
  return { repo, side, counts, sy, project, readState, count, runDir, cleanup };
}
