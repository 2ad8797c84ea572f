import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Env for test git processes: no system or global config, a fixed identity. */
export const GIT_TEST_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@localhost',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@localhost',
};

export function run(cmd: string, args: string[], cwd: string, input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...GIT_TEST_ENV }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.on('error', () => undefined); // EPIPE when the process exits before reading stdin
    child.stdin.end(input ?? '');
  });
}

/** A bare "remote" and a clone of it with one pushed commit on main. */
export async function makePushSetup() {
  const root = await mkdtemp(join(tmpdir(), 'switchyard-guard-'));
  const remote = join(root, 'remote.git');
  const clone = join(root, 'clone');
  const git = async (...args: string[]): Promise<string> => {
    const r = await run('git', args, clone);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout.trim();
  };
  await run('git', ['init', '-q', '--bare', '-b', 'main', remote], root);
  await run('git', ['init', '-q', '-b', 'main', clone], root);
  await git('remote', 'add', 'origin', remote);
  const write = async (files: Record<string, string>): Promise<void> => {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(clone, path)), { recursive: true });
      await writeFile(join(clone, path), content);
    }
  };
  const commit = async (files: Record<string, string>, message = 'change'): Promise<string> => {
    await write(files);
    await git('add', '-A');
    await git('commit', '-q', '--no-verify', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  await commit({ 'README.md': '# project\n', 'src/app.ts': 'export const x = 1;\n' }, 'initial');
  await git('push', '-q', '--no-verify', 'origin', 'main');
  /** `git push` with the hooks running; never throws. */
  const push = (...args: string[]): Promise<RunResult> => run('git', ['push', ...args], clone);
  const remoteHead = async (branch = 'main'): Promise<string> =>
    (await run('git', ['rev-parse', '-q', '--verify', `refs/heads/${branch}`], remote)).stdout.trim();
  return {
    root,
    remote,
    clone,
    git,
    write,
    commit,
    push,
    remoteHead,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export type PushSetup = Awaited<ReturnType<typeof makePushSetup>>;
