import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Project } from '../../../src/core/project/project';
import { registryWithBuiltins } from '../../../src/lanes/builtinLanes';
import { everyFileUnder, leaks, secretWindows } from '../../helpers/secretWindows';
import { makeTempRepo } from '../../helpers/tempRepo';
import { runCli, sharedCliBundle } from './apiLaneHarness';

/** A 164-character deploy token in no vendor's format (no pattern scanner knows it). */
const TOKEN = ['deploy', 'token']
  .map((s) => createHash('sha512').update(s).digest('base64url'))
  .join('')
  .slice(0, 164);

/**
 * A key handed to the command lane through its `env` setting is a secret of
 * the run: the real CLI runs a command that echoes it to stdout and stderr
 * and writes it into a file; no 8-character piece of it is then in any file
 * Switchyard keeps, in anything the CLI prints, or in the diff, and the
 * change that holds it is not merged.
 */
describe('command lane secrets (env setting)', function () {
  this.timeout(120_000);

  it('a credential passed through `env` is redacted everywhere, and the change that holds it is blocked from integration', async () => {
    const cli = await sharedCliBundle();
    const repo = await makeTempRepo();
    try {
      const project = await Project.open(repo.dir, {
        registry: registryWithBuiltins(),
        parentEnv: { PATH: process.env.PATH },
      });
      const command = [
        'echo "using token $DEPLOY_TOKEN for $SWITCHYARD_TASK_TITLE"',
        'echo "warning: token $DEPLOY_TOKEN expires soon" >&2',
        'if [ "$SWITCHYARD_TASK_TITLE" = fails ]; then echo "error: deploy refused for $DEPLOY_TOKEN" >&2; exit 3; fi',
        'printf "url=https://deploy.example\\ntoken=%s\\n" "$DEPLOY_TOKEN" > deploy.cfg',
      ].join('; ');
      await project.settings.update((s) => {
        s.defaultLane = 'command';
        s.laneSettings.command = { command, env: ['DEPLOY_TOKEN', 'NODE_ENV'] };
        s.retryBackoff.initialMs = 0;
      });
      await project.tasks.addMany([{ title: 'writes' }, { title: 'fails' }]);
      const env = { DEPLOY_TOKEN: TOKEN, NODE_ENV: 'production' };
      const outputs = [await runCli(cli, repo.dir, ['run', '--concurrency', '1'], env)];
      for (const args of [
        ['status'],
        ['status', '--json'],
        ['log', 't1.1'],
        ['log', 't2.1'],
        ['diff', 't1.1'],
        ['journal', 't1.1'],
        ['journal', 't2.1', '--json'],
      ]) {
        outputs.push(await runCli(cli, repo.dir, args, env));
      }

      const state = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
      const [writes, fails] = state.tasks;
      // The token really reached the command: it is in the file the command wrote in its worktree.
      assert.match(
        await readFile(join(repo.dir, '.switchyard', 'worktrees', 't1.1', 'deploy.cfg'), 'utf8'),
        new RegExp(`token=${TOKEN.replace(/[-]/g, '\\-')}`),
      );

      // Blocked from integration by the secret guard, naming the file and line and whose value it is, not the value.
      assert.equal(writes.state, 'FAILED', JSON.stringify(state.runs));
      const run1 = state.runs.find((r: { id: string }) => r.id === 't1.1');
      assert.equal(run1.failureCode, 'policy-violation');
      assert.match(
        writes.failureReason,
        /^blocked by guards: secret-scan: deploy\.cfg:2: possible secret \(known-secret: the value of DEPLOY_TOKEN, a secret of this run\) \[REDACTED 164 chars\]/,
      );
      const integrated = await repo.git('ls-tree', '-r', '--name-only', 'switchyard/integration').catch(() => '');
      assert.ok(!integrated.includes('deploy.cfg'), 'deploy.cfg is not in switchyard/integration');
      assert.equal(
        state.runs.filter((r: { taskId: string }) => r.taskId === writes.id).length,
        1,
        'a policy violation is not retried',
      );

      // The failing command's stderr (with the token) is its failure reason, redacted: first its lead line (what
      // failed, failureLeadLines), then the stderr tail.
      assert.equal(fails.state, 'FAILED');
      assert.match(
        fails.failureReason,
        /failed with exit code 3: error: deploy refused for \[redacted DEPLOY_TOKEN\]; stderr: warning: token \[redacted DEPLOY_TOKEN\] expires soon \| error: deploy refused for \[redacted DEPLOY_TOKEN\]/,
      );

      // No piece of it anywhere under .switchyard/ but the file the command itself wrote in its worktree (the change
      // that was refused).
      const everything = await everyFileUnder(join(repo.dir, '.switchyard'));
      assert.deepEqual(leaks(everything, TOKEN), [`${join('worktrees', 't1.1', 'deploy.cfg')} (157 windows)`]);
      const files = await everyFileUnder(join(repo.dir, '.switchyard'), ['worktrees']);
      for (const expected of [
        'state.json',
        'runs/t1.1/events.jsonl',
        'runs/t1.1/diff.patch',
        'runs/t2.1/events.jsonl',
        'guards.jsonl',
      ])
        assert.ok(
          files.some((f) => f.path === expected),
          `${expected} was searched`,
        );
      assert.deepEqual(leaks(files, TOKEN), [], 'files under .switchyard/ holding a piece of the token');
      const printed = outputs.map((o) => `${o.stdout}\n${o.stderr}`).join('\n');
      assert.deepEqual(secretWindows(printed, TOKEN), [], 'pieces of the token the CLI printed');
      // …and it was there to be redacted: in the events, the diff, and what `log` and `diff` print.
      const diff = outputs[5]!;
      assert.equal(diff.exitCode, 0, diff.stderr);
      assert.match(diff.stdout, /\+token=\[redacted DEPLOY_TOKEN\]/);
      assert.match(outputs[3]!.stdout, /using token \[redacted DEPLOY_TOKEN\] for writes/);
      assert.ok(files.find((f) => f.path === 'runs/t1.1/diff.patch')!.text.includes('+token=[redacted DEPLOY_TOKEN]'));
      // A variable whose name is no credential is left alone.
      assert.ok(!printed.includes('[redacted NODE_ENV]'));
    } finally {
      await repo.cleanup();
    }
  });
});
