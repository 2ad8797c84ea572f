import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCommandLane } from '../../../plugins/command';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('editor settings (VS Code Settings UI) on top of the project config', () => {
  it('win over the committed file and the local state, show as "editor", and are never stored', async () => {
    const repo = await makeTempRepo();
    try {
      assert.equal((await runCli(['config', 'set', 'wip.RUNNING', '3', '--repo', repo.dir])).code, 0);
      assert.equal((await runCli(['config', 'set', 'review.enabled', 'false', '--local', '--repo', repo.dir])).code, 0);
      const project = await Project.open(repo.dir, {
        registry: new LaneRegistry(),
        editorSettings: { 'wip.RUNNING': 1, 'review.enabled': true, 'integration.mode': 'teleport' },
      });
      const { settings } = await project.state();
      assert.equal(settings.wip.RUNNING, 1, 'over the committed 3');
      assert.equal(settings.review.enabled, true, 'over the local false');
      assert.equal(settings.integration.mode, 'local', 'a value the schema refuses is left out');
      const layers = await project.settings.layers();
      assert.equal(layers.sources.get('wip.RUNNING'), 'editor');
      assert.deepEqual(layers.editorIgnored, ['integration.mode']);
      assert.deepEqual(layers.ignored, [], 'not a trust matter');

      // A change made through the project keeps the editor's values out of the state and the committed file.
      await project.settings.update((s) => {
        s.leaseMs = 45_000;
      });
      const stored = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
      assert.equal(stored.settings.leaseMs, 45_000);
      assert.notEqual(stored.settings.wip?.RUNNING, 1);
      assert.equal(stored.settings.review.enabled, false);
      const committed = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'config.json'), 'utf8'));
      assert.equal(committed.wip.RUNNING, 3);
    } finally {
      await repo.cleanup();
    }
  });

  // `switchyard.verifyTimeoutSeconds` reaches the run as every other editor setting does, through this layer (it was
  // a separate option of its own, read by the run's verification stage).
  it("verifyTimeoutSeconds from the editor is the acceptance command's limit", async function () {
    this.timeout(60_000);
    const repo = await makeTempRepo();
    try {
      const registry = new LaneRegistry();
      registry.register(createCommandLane());
      const project = await Project.open(repo.dir, { registry, editorSettings: { verifyTimeoutSeconds: 1 } });
      await project.settings.update((s) => {
        s.laneSettings.command = { command: 'echo change > change.txt' };
        s.defaultLane = 'command';
        s.retryCaps.command = 1;
      });
      assert.equal((await project.settings.read()).verifyTimeoutSeconds, 1);
      await project.tasks.add({ title: 'slow check', acceptance: 'sleep 20' });
      const started = Date.now();
      await project.runQueue();
      const [run] = (await project.state()).runs;
      assert.match(run!.failureReason ?? '', /timed out after 1(\.0)? ?s/);
      assert.ok(Date.now() - started < 15_000, `stopped by the 1 s limit, not the command's 20 s`);
      await project.close();
    } finally {
      await repo.cleanup();
    }
  });
});
