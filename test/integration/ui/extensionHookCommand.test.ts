import assert from 'node:assert/strict';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createCommandLane } from '../../../plugins/command';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { shellQuote } from '../../../src/core/text/shellQuote';
import { extensionHookCommand } from '../../../src/ui/project/extensionHookCommand';
import { makePushSetup, type PushSetup } from '../guards/gitFixture';
import { testCliBundle } from '../guards/testCli';

const L = '<'.repeat(7);

/**
 * A run started in VS Code: the extension host is not the CLI's dist/cli.js, so the Project it opens names the hook
 * command itself (extensionHookCommand: the extension's dist/hook.js, run by the host's binary as Node). The run's
 * worktree gets the pre-push guard, and an agent's push of a half-resolved merge is refused.
 */
describe('the pre-push guard in runs started from VS Code (the extension host path)', function () {
  this.timeout(90_000);
  let s: PushSetup;
  let extensionDir: string;

  beforeEach(async () => {
    s = await makePushSetup();
    await s.git('config', 'user.name', 'Test');
    await s.git('config', 'user.email', 'test@localhost');
    // The extension's folder as VS Code installs it: dist/ with hook.js and hookMain.js.
    extensionDir = join(s.root, 'extension');
    await mkdir(extensionDir);
    await symlink(dirname(await testCliBundle()), join(extensionDir, 'dist'));
  });
  afterEach(async () => s.cleanup());

  it("installs the hook in the run's worktree; the agent's push of conflict markers is blocked", async () => {
    const hookCommand = extensionHookCommand(extensionDir, process.execPath);
    assert.ok(hookCommand, 'the extension has dist/hook.js');
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    const project = await Project.open(s.clone, {
      registry,
      hookCommand,
      parentEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    const log = join(s.root, 'push.log');
    await project.settings.update((settings) => {
      settings.laneSettings.command = {
        command: [
          `printf 'export const x = 1;\\n${L} HEAD\\n' > src/app.ts`,
          'git add src/app.ts',
          'git commit -q --no-verify -m "half-resolved merge"',
          `{ git push origin HEAD:refs/heads/agent-push > ${shellQuote(log)} 2>&1; echo "push exit $?" >> ${shellQuote(log)}; }`,
        ].join(' && '),
      };
    });
    const task = await project.tasks.add({ title: 'Push a half-resolved merge', files: ['src/app.ts'] });
    await project.runQueue({ taskIds: [task.id] });

    const pushed = await readFile(log, 'utf8');
    assert.match(pushed, /switchyard pre-push guard: push blocked/, pushed);
    assert.match(pushed, /src\/app\.ts:2: conflict marker/);
    assert.match(pushed, /push exit [1-9]/);
    assert.equal(await s.remoteHead('agent-push'), '', 'the remote has no such branch');
    const run = (await project.state()).runs.find((r) => r.taskId === task.id)!;
    const decisions = (await project.runs.log(run.id)).map((l) => JSON.stringify(l));
    assert.ok(
      decisions.some((l) => l.includes('pre-push guard installed in')),
      `the run recorded the installed guard: ${decisions.join('\n')}`,
    );
    assert.ok(!decisions.some((l) => l.includes('not installed')));
    await project.close();
  });
});
