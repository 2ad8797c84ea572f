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

  // VS Code's `switchyard.lanes` comes through the same layer, one key per lane setting, asked for at each read (it was
  // a channel of its own, `laneSettingsOverride`, read by the run's plan).
  it('switchyard.lanes: per setting over the project\'s lane settings, as "editor", and an edit applies to the next run', async function () {
    this.timeout(60_000);
    const repo = await makeTempRepo();
    try {
      const registry = new LaneRegistry();
      registry.register(createCommandLane());
      let editor: Record<string, unknown> = { 'laneSettings.command.command': 'echo editor > which.txt' };
      const project = await Project.open(repo.dir, { registry, editorSettings: () => editor });
      await project.settings.update((s) => {
        s.laneSettings.command = { command: 'echo project > which.txt', timeoutMs: 60_000 };
        s.defaultLane = 'command';
      });
      const lane = (await project.settings.read()).laneSettings.command;
      assert.deepEqual(
        lane,
        { command: 'echo editor > which.txt', timeoutMs: 60_000 },
        "the project's other setting stays",
      );
      const layers = await project.settings.layers();
      assert.equal(layers.sources.get('laneSettings.command.command'), 'editor');
      assert.equal(layers.sources.get('laneSettings.command.timeoutMs'), 'local');

      const which = async (): Promise<string> => {
        const task = await project.tasks.add({ title: 'which command' });
        await project.runQueue();
        const run = (await project.state()).runs.find((r) => r.taskId === task.id)!;
        return project.runs.diff(run.id);
      };
      assert.match(await which(), /^\+editor$/m);
      editor = { 'laneSettings.command.command': 'echo edited > which.txt' };
      assert.match(await which(), /^\+edited$/m, 'the edit applies to the next run without reopening the project');
      editor = {};
      assert.match(await which(), /^\+project$/m, "unset in the editor, the project's own applies");
      const stored = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
      assert.equal(stored.settings.laneSettings.command.command, 'echo project > which.txt', 'never stored');
      await project.close();
    } finally {
      await repo.cleanup();
    }
  });
});
