import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildDistBundles } from '../../helpers/distBundles';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { COMMANDS } from '../../../src/ui/commandIds';
import { makeTempRepo } from '../../helpers/tempRepo';

const run = promisify(execFile);

interface ProbeReport {
  registered: string[];
  loadedAtActivation: string[];
  loadedAfterCommand: string[];
  result?: { rows: { label: string }[] };
  error?: string;
}

// The extension's two bundles, built as scripts/build.mjs builds them, loaded in a plain Node process with the
// stand-in `vscode` of bench/vscodeStandIn.cjs (bench/startupProbe.cjs activates and then runs one command).
describe('the extension entry (dist/extension.js) and its runtime bundle', function () {
  this.timeout(120_000);
  let dist: string;

  before(async () => {
    dist = await mkdtemp(join(tmpdir(), 'switchyard-entry-'));
    await writeFile(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
    await buildDistBundles(
      dist,
      [
        ['src/extension.ts', 'extension.js'],
        ['src/extensionRuntime.ts', 'extensionRuntime.js'],
      ],
      { external: ['vscode'] },
    );
    await copyFile('bench/vscodeStandIn.cjs', join(dist, 'vscodeStandIn.cjs'));
  });

  after(() => rm(dist, { recursive: true, force: true }));

  it('registers every command at activation without loading the runtime; the first command loads it', async () => {
    const repo = await makeTempRepo();
    try {
      const project = await Project.open(repo.dir, { registry: new LaneRegistry() });
      await project.tasks.addMany([{ title: 'Queued from the test' }]);
      await project.close();
      const { stdout } = await run(
        process.execPath,
        [resolve('bench/startupProbe.cjs'), join(dist, 'extension.js'), 'activate', 'switchyard.tasksTreeRows'],
        { cwd: repo.dir, env: { ...process.env, SWITCHYARD_STANDIN_FOLDER: repo.dir } },
      );
      const report = JSON.parse(stdout) as ProbeReport;
      assert.deepEqual(report.registered.sort(), Object.values(COMMANDS).sort(), 'every command id is registered');
      const manifest = JSON.parse(await readFile('package.json', 'utf8')) as {
        contributes: { commands: { command: string }[] };
      };
      const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !report.registered.includes(c));
      assert.deepEqual(missing, [], 'every contributed command is registered at activation');
      assert.deepEqual(report.loadedAtActivation, [join(dist, 'extension.js')], 'activation loads the entry only');
      assert.equal(report.error, undefined);
      assert.ok(
        report.result?.rows.some((r) => r.label.includes('Queued from the test')),
        `the command ran in the runtime and saw the task: ${JSON.stringify(report.result)}`,
      );
      assert.ok(report.loadedAfterCommand.includes(join(dist, 'extensionRuntime.js')), 'the command loaded it');
    } finally {
      await repo.cleanup();
    }
  });
});
