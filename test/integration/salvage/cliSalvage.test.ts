import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { cliLaneProject } from '../../helpers/cliLaneProject';
import { standIn } from '../../helpers/cliStandIns';
import { makeTempDir } from '../../helpers/tempRepo';

function cli(...args: string[]) {
  return runCli(args);
}

describe("salvage of a CLI lane's partial work", () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let ctx: Awaited<ReturnType<typeof cliLaneProject>> | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    await ctx?.repo.cleanup();
    await tmp.cleanup();
  });

  it('the CLI edits files and dies: patch and branch exist, the next attempt starts on them in a new session (its own worktree), and the operator promotes it', async function () {
    this.timeout(30_000);
    const fake = await standIn(tmp.dir, 'claude', [
      [
        { replay: 'claude/started.jsonl' },
        { write: { file: 'src/feature.ts', content: 'export const feature = 1;\n' } },
        { write: { file: 'notes/todo.md', content: '- finish feature\n' } },
        { partial: '{"type":"assistant","mess' },
        { kill: 'SIGKILL' },
      ],
      [
        { replay: 'claude/started.jsonl' },
        { write: { file: 'src/feature.ts', content: 'export const feature = 2;\n' } },
        { stderr: 'Error: connection to the bridge was lost' },
        { kill: 'SIGKILL' },
      ],
    ]);
    ctx = await cliLaneProject('claude-code', { binary: fake.binary }, { attempts: 2 });
    const { project, repo } = ctx;
    await project.tasks.add({ title: 'Build the feature', spec: 'Write src/feature.ts', lane: 'claude-code' });
    await project.runQueue();
    const state = await project.state();
    const [first, second] = state.runs;

    // What the first attempt left is kept: a commit named as salvage, and the patch.
    assert.deepEqual(first!.salvage && { branch: first!.salvage.branch, files: first!.salvage.files }, {
      branch: 'switchyard/salvage/t1.1',
      files: 2,
    });
    assert.equal((await repo.git('rev-parse', 'switchyard/salvage/t1.1')).trim(), first!.salvage!.commit);
    const patch = await readFile(join(repo.dir, '.switchyard', 'runs', 't1.1', 'diff.patch'), 'utf8');
    assert.match(patch, /\+\+\+ b\/src\/feature\.ts\n@@ .* @@\n\+export const feature = 1;/);
    assert.match(patch, /\+- finish feature/);

    // The next attempt started from it, in a new session: the old one began in t1.1's worktree.
    const calls = await fake.invocations();
    assert.equal(calls[0]!.session, null);
    assert.equal(calls[1]!.session, null);
    assert.ok(!calls[1]!.argv.includes('--resume'), calls[1]!.argv.join(' '));
    assert.match(
      calls[1]!.prompt,
      /An earlier attempt \(run t1\.1\) stopped before it finished\. It stopped with: claude's stream stopped mid-line.*\nIts partial work was kept on branch switchyard\/salvage\/t1\.1, and this working tree already starts from it/,
    );
    assert.doesNotMatch(calls[1]!.prompt, /This continues your earlier session/);
    assert.equal(second!.resumeFrom?.salvageBranch, 'switchyard/salvage/t1.1');
    const secondDiff = await project.runs.diff('t1.2');
    assert.match(secondDiff, /\+export const feature = 2;/);
    assert.match(secondDiff, /\+- finish feature/, "the second attempt built on the first one's files");

    // Each attempt's reason, and the task's, are the real errors.
    assert.equal(
      second!.failureReason,
      "claude's stream ended without a result; claude was killed by SIGKILL; stderr: Error: connection to the bridge was lost",
    );
    assert.equal(state.tasks[0]!.failureReason, `${second!.failureReason} (failed 2 attempts, the lane's limit)`);
    const status = await cli('status', '--repo', repo.dir);
    assert.match(
      status.out,
      /t1\.1 · FAILED · .*salvaged 2 file\(s\) on switchyard\/salvage\/t1\.1 · reason: claude's stream stopped mid-line/,
    );

    // The operator lists and promotes it; the user's working tree is never touched.
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    const list = await cli('salvage', 'list', '--repo', repo.dir);
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /^t1\.2\s+FAILED\s+2\s+switchyard\/salvage\/t1\.2\s+[0-9a-f]{12}\s+t1 Build the feature$/m);
    assert.match(list.out, /^t1\.1\s+FAILED\s+2\s+switchyard\/salvage\/t1\.1 /m);
    const promoted = await cli('salvage', 'promote', 't1.2', '--to', 'rescue/feature', '--repo', repo.dir);
    assert.equal(promoted.code, 0, promoted.err);
    assert.match(
      promoted.out,
      /t1\.2: created branch rescue\/feature at the salvage commit \([0-9a-f]{12}, 2 file\(s\)\); your working tree was not touched\.\nNext: git switch rescue\/feature/,
    );
    assert.equal((await repo.git('rev-parse', 'rescue/feature')).trim(), second!.salvage!.commit);
    assert.equal(
      (await cli('salvage', 'promote', 't1.2', '--to', 'rescue/feature', '--repo', repo.dir)).out.split('\n')[0],
      `t1.2: branch rescue/feature already points at the salvage commit (${second!.salvage!.commit.slice(0, 12)}, 2 file(s)); your working tree was not touched.`,
    );
    const behind = await cli('salvage', 'promote', 't1.1', '--to', 'rescue/feature', '--repo', repo.dir);
    assert.match(behind.err, /branch rescue\/feature exists and has commits the salvage of run t1\.1 does not/);
    assert.match(
      (await cli('salvage', 'promote', 't1.1', '--to', 'switchyard/mine', '--repo', repo.dir)).err,
      /in Switchyard's own namespace/,
    );

    // --onto: the salvaged diff as one commit on the user's current HEAD, built outside the working tree.
    await writeFile(join(repo.dir, 'README.md'), '# moved on\n');
    await repo.git('add', 'README.md');
    await repo.git('commit', '-m', 'user moved on');
    const onto = await cli(
      'salvage',
      'promote',
      't1.2',
      '--to',
      'feature-on-main',
      '--onto',
      'main',
      '--repo',
      repo.dir,
    );
    assert.equal(onto.code, 0, onto.err);
    assert.equal(
      (await repo.git('rev-parse', 'feature-on-main^')).trim(),
      (await repo.git('rev-parse', 'main')).trim(),
    );
    assert.deepEqual((await repo.git('diff', '--name-only', 'main', 'feature-on-main')).trim().split('\n').sort(), [
      'notes/todo.md',
      'src/feature.ts',
    ]);
    assert.match(
      await repo.git('log', '-1', '--format=%s', 'feature-on-main'),
      /^Salvaged work of run t1\.2: Build the feature/,
    );

    assert.equal((await repo.git('rev-parse', '--abbrev-ref', 'HEAD')).trim(), 'main', "still on the user's branch");
    assert.notEqual((await repo.git('rev-parse', 'HEAD')).trim(), head, "HEAD is the user's own new commit only");
    assert.equal(
      (await repo.git('status', '--porcelain', '--untracked-files=no')).trim(),
      '',
      "the user's working tree is clean",
    );
    assert.ok(!existsSync(join(repo.dir, 'src', 'feature.ts')), "nothing was written into the user's working tree");
    const log = await cli('log', 't1.2', '--repo', repo.dir);
    assert.match(log.out, /salvage of run t1\.2 promoted by the operator: branch rescue\/feature created/);
  });

  it('promoting onto a revision it conflicts with leaves nothing behind and says which files conflict', async () => {
    const fake = await standIn(tmp.dir, 'codex', [
      [
        { replay: 'codex/started.jsonl' },
        { write: { file: 'src/a.txt', content: 'alpha from the agent\n' } },
        { kill: 'SIGKILL' },
      ],
    ]);
    ctx = await cliLaneProject('codex', { binary: fake.binary });
    const { project, repo } = ctx;
    await project.tasks.add({ title: 'edit a', lane: 'codex' });
    await project.runQueue();
    assert.equal((await project.state()).runs[0]!.salvage?.files, 1);
    await writeFile(join(repo.dir, 'src', 'a.txt'), 'alpha from the user\n');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'user edit');
    const result = await cli('salvage', 'promote', 't1.1', '--onto', 'HEAD', '--repo', repo.dir);
    assert.equal(result.code, 1);
    assert.match(
      result.err,
      /the salvage of run t1\.1 does not apply onto HEAD \([0-9a-f]{12}\): conflicts in src\/a\.txt; promote it without --onto/,
    );
    assert.equal((await repo.git('branch', '--list', 'salvage/t1.1')).trim(), '', 'no branch was made');
    assert.equal(
      (await repo.git('worktree', 'list'))
        .trim()
        .split('\n')
        .filter((l) => l.includes('switchyard-promote-')).length,
      0,
      'the scratch worktree is gone',
    );
    assert.equal(await readFile(join(repo.dir, 'src', 'a.txt'), 'utf8'), 'alpha from the user\n');
    const plain = await cli('salvage', 'promote', 't1.1', '--repo', repo.dir);
    assert.equal(plain.code, 0, plain.err);
    assert.match(plain.out, /created branch salvage\/t1\.1 at the salvage commit/);
  });

  it('a CLI that died before it named a session: the next attempt starts fresh with the salvaged diff', async () => {
    const fake = await standIn(tmp.dir, 'codex', [
      [{ write: { file: 'early.txt', content: 'early\n' } }, { stderr: 'thread panicked' }, { exit: 101 }],
      [{ replay: 'codex/normal.jsonl' }],
    ]);
    ctx = await cliLaneProject('codex', { binary: fake.binary }, { attempts: 2 });
    await ctx.project.tasks.add({ title: 'early death', lane: 'codex' });
    await ctx.project.runQueue();
    const calls = await fake.invocations();
    assert.deepEqual(calls[1]!.argv, ['exec', '--json', '--sandbox', 'workspace-write', '-'], 'no session to resume');
    assert.match(calls[1]!.prompt, /\+early\n```/);
    assert.equal(
      (await ctx.project.state()).runs[0]!.failureReason,
      "codex's stream ended without a result; codex exited with code 101; stderr: thread panicked",
    );
  });
});
