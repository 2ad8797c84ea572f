import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { superviseGit } from '../../../src/core/engine/drain/supervisedGit';
import { GitFailure, git, gitLines, gitOutput, useGitRunner } from '../../../src/core/git/gitExec';
import { readProcStat } from '../../../src/core/process/killRecordedGroups';
import { readySupervisor } from '../../../src/core/process/sharedSupervisor';
import { classify } from '../../../src/core/retry/classifyError';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';
import { until, untilValue } from '../../helpers/until';

/** git's own parent, printed by a shell alias: `$PPID` of the alias's shell is git. */
const PARENT_OF_GIT = ['-c', "alias.parent=!awk '/^PPid/{print $2}' /proc/$PPID/status", 'parent'];
/** The live children of `parent` whose command line holds `text`, from /proc. */
const childrenRunning = (parent: number, text: string): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = readProcStat(pid);
      if (stat?.ppid !== parent || stat.state === 'Z') return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    });
const settled = <T>(p: Promise<T>): Promise<{ ok: T } | { error: unknown }> =>
  p.then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );
/** The same call once directly and once through the supervisor. */
async function both<T>(call: () => Promise<T>): Promise<[Awaited<ReturnType<typeof settled<T>>>, typeof direct]> {
  const previous = useGitRunner(undefined);
  const direct = await settled(call());
  useGitRunner(previous);
  const supervised = await settled(call());
  return [direct, supervised] as never;
}
const described = (r: { ok: unknown } | { error: unknown }): unknown =>
  'ok' in r
    ? r
    : {
        error:
          r.error instanceof GitFailure
            ? { code: r.error.code, message: r.error.message, stderr: r.error.stderr }
            : String(r.error),
      };

describe('git through the process-group supervisor (in a drain it forks for git, not this process)', function () {
  this.timeout(60_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let release: () => void;
  const pids: number[] = [];
  beforeEach(async () => {
    repo = await makeTempRepo();
    release = superviseGit();
    readySupervisor();
    await until('the supervisor to be ready', () => readySupervisor() !== undefined, 20_000);
  });
  afterEach(async () => {
    // Stop this file's supervisor: a test file loaded as ESM has module instances of its own and expects none.
    const supervisor = readySupervisor() as unknown as { child?: { pid?: number } } | undefined;
    const pid = supervisor?.child?.pid;
    if (pid) {
      process.kill(pid, 'SIGTERM');
      await until('the supervisor to end', () => readProcStat(pid) === undefined);
    }
    release();
    for (const pid of pids.splice(0))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    await repo.cleanup();
  });

  it('spawns git in the supervisor: git’s parent is the supervisor, a child of this process', async () => {
    const parent = Number((await gitOutput(repo.dir, PARENT_OF_GIT)).trim());
    assert.notEqual(parent, process.pid);
    assert.equal(readProcStat(parent)?.ppid, process.pid, 'git’s parent is this process’s child');
    const previous = useGitRunner(undefined);
    const direct = Number((await gitOutput(repo.dir, PARENT_OF_GIT)).trim());
    useGitRunner(previous);
    assert.equal(direct, process.pid, 'without a runner, this process spawns git');
  });

  it('gives what a direct run gives: a multi-MB output, ok codes, a failure’s message, no git on PATH', async () => {
    const big = `${randomBytes(3 * 1024 * 1024).toString('hex')}\né ü 漢字 🚀\n${randomBytes(1024).toString('base64')}`;
    writeFileSync(join(repo.dir, 'big.txt'), big);
    await repo.git('add', 'big.txt');
    await repo.git('commit', '-m', 'big');
    const [d1, s1] = await both(() => gitOutput(repo.dir, ['show', 'HEAD:big.txt']));
    assert.ok('ok' in s1 && s1.ok === big, 'the supervised output is the file, byte for byte');
    assert.deepEqual(s1, d1);

    writeFileSync(join(repo.dir, 'README.md'), 'changed\n');
    const [d2, s2] = await both(() => git(repo.dir, ['diff', '--quiet'], [0, 1]));
    assert.deepEqual(s2, { ok: { stdout: '', code: 1 } });
    assert.deepEqual(s2, d2);

    const [d3, s3] = await both(() => git(repo.dir, ['rev-parse', '--verify', 'no-such-branch']));
    assert.ok('error' in s3 && s3.error instanceof GitFailure);
    assert.match(
      (s3.error as GitFailure).message,
      /^git rev-parse --verify no-such-branch: fatal: Needed a single revision/,
    );
    assert.deepEqual(described(s3), described(d3));

    const [d4, s4] = await both(() => git(repo.dir, ['diff', '--quiet']));
    assert.ok('error' in s4, 'exit code 1 without ok code 1 rejects');
    assert.deepEqual(described(s4), described(d4));

    const empty = await makeTempDir();
    const path = process.env.PATH;
    process.env.PATH = empty.dir;
    try {
      const [d5, s5] = await both(() => git(repo.dir, ['status']));
      assert.deepEqual(described(s5), {
        error: { code: 'git-failed', message: 'git status: git was not found on PATH', stderr: '' },
      });
      assert.deepEqual(described(s5), described(d5));
      const [d6, s6] = await both(() => gitLines(repo.dir, ['ls-files'], () => undefined));
      assert.deepEqual(described(s6), described(d6));
      assert.match(String((s6 as { error: Error }).error.message), /git was not found on PATH/);
    } finally {
      process.env.PATH = path;
      await empty.cleanup();
    }
  });

  it('keeps concurrent commands apart', async () => {
    const blobs = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const content = `${i}:${randomBytes(20_000 + i * 5_000).toString('hex')}\n`;
        writeFileSync(join(repo.dir, `f${i}.txt`), content);
        return { content, sha: (await gitOutput(repo.dir, ['hash-object', '-w', `f${i}.txt`])).trim() };
      }),
    );
    const shown = await Promise.all(blobs.map((b) => gitOutput(repo.dir, ['cat-file', 'blob', b.sha])));
    for (const [i, out] of shown.entries()) assert.equal(out, blobs[i]!.content);
  });

  it('streams gitLines: a line arrives while git is still running', async () => {
    const seen: { line: string; at: number }[] = [];
    const code = await gitLines(repo.dir, ['-c', 'alias.slow=!echo one; sleep 1; echo two', 'slow'], (line) =>
      seen.push({ line, at: Date.now() }),
    );
    assert.equal(code, 0);
    assert.deepEqual(
      seen.map((s) => s.line),
      ['one', 'two'],
    );
    assert.ok(seen[1]!.at - seen[0]!.at >= 700, `the first line came ${seen[1]!.at - seen[0]!.at} ms before the last`);
    const lines: string[] = [];
    await gitLines(repo.dir, ['ls-files'], (line) => lines.push(line));
    assert.deepEqual(lines, ['README.md', 'src/a.txt']);
  });

  it("gitLines with a caller's signal and base environment, directly and through the supervisor", async () => {
    const canceled = async (): Promise<number> => {
      const controller = new AbortController();
      const started = Date.now();
      const slow = ['-c', 'alias.slow=!echo one; exec sleep 10', 'slow'];
      await assert.rejects(
        gitLines(repo.dir, slow, () => controller.abort(), [0], { signal: controller.signal }),
        {
          code: 'git-failed',
          message: 'git -c alias.slow=!echo one; exec sleep 10 slow: canceled',
        },
      );
      return Date.now() - started;
    };
    const [d1, s1] = await both(canceled);
    for (const r of [d1, s1]) assert.ok('ok' in r && r.ok < 5_000, `stopped at the first line: ${JSON.stringify(r)}`);

    const shown = async (): Promise<string[]> => {
      const lines: string[] = [];
      const env = ['-c', 'alias.env=!echo "${FROM_BASE:-unset} ${FROM_PROCESS:-unset} $LC_ALL"', 'env'];
      await gitLines(repo.dir, env, (line) => lines.push(line), [0], {
        baseEnv: { PATH: process.env.PATH!, FROM_BASE: 'base' },
      });
      return lines;
    };
    process.env.FROM_PROCESS = 'process';
    try {
      const [d2, s2] = await both(shown);
      assert.deepEqual(s2, { ok: ['base unset C'] }, 'the base instead of this process, GIT_ENV over it');
      assert.deepEqual(s2, d2);
    } finally {
      delete process.env.FROM_PROCESS;
    }
  });

  it('after a SIGKILL of the supervisor between calls, the next call works (direct, then a fresh one)', async () => {
    const first = Number((await gitOutput(repo.dir, PARENT_OF_GIT)).trim());
    process.kill(first, 'SIGKILL');
    await until(
      'the supervisor to be gone',
      () => readProcStat(first) === undefined || readProcStat(first)?.state === 'Z',
    );
    assert.equal((await gitOutput(repo.dir, ['rev-parse', '--abbrev-ref', 'HEAD'])).trim(), 'main');
    const next = await untilValue(
      'git through a fresh supervisor',
      async () => {
        const parent = Number((await gitOutput(repo.dir, PARENT_OF_GIT)).trim());
        return parent !== process.pid && parent !== first ? parent : undefined;
      },
      20_000,
      100,
    );
    assert.equal(readProcStat(next)?.ppid, process.pid);
  });

  it('a supervisor that dies while git runs rejects with a transient failure saying git may have run', async () => {
    const parent = Number((await gitOutput(repo.dir, PARENT_OF_GIT)).trim());
    const running = settled(gitOutput(repo.dir, ['-c', 'alias.slow=!sleep 2', 'slow']));
    await until('git to run under the supervisor', () => childrenRunning(parent, 'alias.slow').length === 1);
    process.kill(parent, 'SIGKILL');
    const outcome = await running;
    assert.ok('error' in outcome && outcome.error instanceof GitFailure, 'it rejects with a GitFailure');
    assert.match(
      outcome.error.message,
      /^git -c alias\.slow=!sleep 2 slow: the process-group supervisor died \(signal SIGKILL\) while the program ran; git may have run$/,
    );
    assert.equal(classify(outcome.error).class, 'transient');
  });

  it('an owner SIGKILLed while git runs: git finishes, then the supervisor exits', async () => {
    const marker = join(repo.dir, 'finished.txt');
    const owner = spawn(process.execPath, ['--import', 'tsx', resolve('test/fixtures/git/gitOwner.ts'), repo.dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    pids.push(owner.pid!);
    const supervisor = await new Promise<number>((done) =>
      owner.stdout.once('data', (d: Buffer) => done(Number(String(d).trim()))),
    );
    pids.push(supervisor);
    assert.equal(readProcStat(supervisor)?.ppid, owner.pid);
    await until('git to run under the supervisor', () => childrenRunning(supervisor, 'alias.slow').length === 1);
    assert.ok(!existsSync(marker), 'git is still at work');
    owner.kill('SIGKILL');
    await until(
      'the supervisor to exit',
      () => {
        const s = readProcStat(supervisor);
        return !s || s.state === 'Z';
      },
      15_000,
    );
    // git sleeps 1.5 s before it writes the marker: had the supervisor not waited for it, the marker would not be
    // there yet (or ever, had it ended git).
    assert.ok(existsSync(marker), 'the supervisor waited for git to finish before it exited');
  });
});
