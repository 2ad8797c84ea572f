import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

function cli(...args: string[]) {
  return runCli(args);
}

/** Linux's MAX_ARG_STRLEN: one environment string longer than this makes exec fail with E2BIG. */
const MAX_ARG_STRLEN = 128 * 1024;

describe('a spec too large for an environment variable', function () {
  this.timeout(120_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('reaches a command lane whole through SWITCHYARD_TASK_SPEC_FILE, and the run succeeds', async () => {
    const spec = `${'Make the change described here. '.repeat(4_200)}THE END\n`; // 134,408 bytes
    assert.ok(spec.length > MAX_ARG_STRLEN);
    const specFile = join(repo.dir, 'big-spec.md');
    await writeFile(specFile, spec);
    const command =
      'wc -c < "$SWITCHYARD_TASK_SPEC_FILE" | tr -d " " > spec-file-bytes.txt && printf %s "$SWITCHYARD_TASK_SPEC" | wc -c | tr -d " " > spec-env-bytes.txt && wc -c | tr -d " " > spec-stdin-bytes.txt';
    assert.equal((await cli('lanes', 'set', 'command', `command=${command}`, '--repo', repo.dir)).code, 0);
    const added = await cli('task', 'add', '--title', 'Big spec', '--spec-file', specFile, '--repo', repo.dir);
    assert.equal(added.code, 0, added.err);
    const run = await cli('run', '--repo', repo.dir);
    assert.equal(run.code, 0, run.out + run.err);
    assert.match(run.out, /t1 DONE/);
    const state = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
    assert.equal(state.runs.length, 1, 'one attempt: nothing failed and was retried');
    const diff = (await cli('diff', 't1.1', '--repo', repo.dir)).out;
    const bytes = (name: string) => Number(new RegExp(`\\+\\+\\+ b/${name}\\n@@[^\\n]*\\n\\+(\\d+)`).exec(diff)?.[1]);
    assert.equal(bytes('spec-file-bytes.txt'), Buffer.byteLength(spec), 'the file holds the whole spec');
    assert.equal(bytes('spec-stdin-bytes.txt'), Buffer.byteLength(spec), 'stdin carries the whole spec');
    const envBytes = bytes('spec-env-bytes.txt');
    assert.ok(
      envBytes > 60_000 && envBytes <= 64 * 1024,
      `SWITCHYARD_TASK_SPEC holds ${envBytes} bytes: cut, with a note`,
    );
    assert.equal(
      await readFile(join(repo.dir, '.switchyard', 'runs', 't1.1', 'spec.md'), 'utf8'),
      spec,
      "the spec file is in the run's folder",
    );
  });

  it('a command line too large to start fails once, as a permanent error naming E2BIG (no signal, no retry)', async () => {
    const huge = `true ${'x'.repeat(MAX_ARG_STRLEN + 1_000)}`;
    assert.equal((await cli('lanes', 'set', 'command', `command=${huge}`, '--repo', repo.dir)).code, 0);
    await cli('lanes', 'cap', 'command', '3', '--repo', repo.dir);
    await cli('task', 'add', '--title', 'Too large', '--repo', repo.dir);
    const run = await cli('run', '--repo', repo.dir);
    assert.equal(run.code, 1);
    const state = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
    assert.equal(state.runs.length, 1, 'not retried');
    assert.equal(state.tasks[0].state, 'FAILED');
    assert.match(
      state.tasks[0].failureReason,
      // line-length: data-table, the error message quoted whole, backticks included
      /could not start the command \(spawn E2BIG: the command line and environment are larger than the system allows.*\): `true xxxx+…` \(132077 characters\)/,
      // line-length: end
    );
    assert.doesNotMatch(state.tasks[0].failureReason, /signal unknown/);
  });
});
