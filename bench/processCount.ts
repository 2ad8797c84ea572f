import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TASKS = 20;

interface Spawn {
  via: string;
  command: string;
  args: string[];
}

/**
 * Child processes per task: the real CLI (`node dist/cli.js run`, default concurrency) drains 20 tiny-change tasks on
 * the command lane, with bench/spawnCounter.cjs preloaded to log every child process it starts; printed per task and
 * by kind (git by subcommand), worker threads' children included. The floor is 4: `git worktree add`, the agent,
 * `git commit`, `git worktree remove`. Target ≤ 8. What a drain starts once (configuration reads, the hook's paths, a
 * prune, the long-lived `git update-ref --stdin`) is spread over the tasks, so fewer tasks show a higher figure.
 */
export async function benchProcessCount(): Promise<void> {
  const cli = resolve('dist/cli.js');
  if (!(await stat(cli).catch(() => undefined))) {
    console.log('dist/cli.js missing: run npm run build');
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-procs-'));
  try {
    const log = join(dir, 'spawns.jsonl');
    const spawns = await drain(dir, cli, log);
    const byKind = new Map<string, number>();
    for (const s of spawns) {
      const kind = s.command === 'git' ? `git ${gitSubcommand(s.args)}` : kindOf(s.command);
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    }
    console.log(`${TASKS} tasks drained by node dist/cli.js run; ${spawns.length} child processes started`);
    console.log(`child processes per task              ${(spawns.length / TASKS).toFixed(2)}  (target ≤ 8, floor 4)`);
    for (const [kind, n] of [...byKind].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${kind.padEnd(36)} ${(n / TASKS).toFixed(2)} per task (${n})`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
benchProcessCount.title = 'Child processes per task: the CLI drains 20 tasks on the command lane';

async function drain(dir: string, cli: string, log: string): Promise<Spawn[]> {
  const repo = join(dir, 'repo');
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const git = (...args: string[]) => run('git', args, { cwd: repo, env });
  await run('git', ['init', '-q', '-b', 'main', repo], { env });
  await git('config', 'user.name', 'Bench');
  await git('config', 'user.email', 'bench@localhost');
  await writeFile(join(repo, 'README.md'), '# bench\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial');
  const agent = join(dir, 'agent.mjs');
  await writeFile(
    agent,
    [
      "import { writeFileSync } from 'node:fs';",
      'const title = process.env.SWITCHYARD_TASK_TITLE;',
      "writeFileSync(title.replace(/\\W+/g, '-') + '.md', title + '\\n');",
      '',
    ].join('\n'),
  );
  const cliRun = (...args: string[]) => run(process.execPath, [cli, ...args], { cwd: repo, env });
  await cliRun('lanes', 'set', 'command', `command=${process.execPath} ${agent}`);
  await cliRun('default-lane', 'command');
  const tasks = Array.from({ length: TASKS }, (_, i) => ({ title: `Change ${i + 1}` }));
  await writeFile(join(dir, 'tasks.json'), JSON.stringify(tasks));
  await cliRun('task', 'add', '--from', join(dir, 'tasks.json'));
  await writeFile(log, '');
  await run(process.execPath, [cli, 'run'], {
    cwd: repo,
    env: {
      ...env,
      SWITCHYARD_BENCH_SPAWN_LOG: log,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${resolve('bench/spawnCounter.cjs')}`.trim(),
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  const text = await readFile(log, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Spawn);
}

/** `worktree add`, `rev-parse --git-dir`, `config user.name`: the subcommand and its first word that says what. */
function gitSubcommand(args: readonly string[]): string {
  const option = (a: string | undefined): boolean => a === '-C' || a === '-c';
  const rest = args.filter((a, i) => !(option(a) || option(args[i - 1]) || a.startsWith('-c')));
  const [sub, next] = rest;
  if (sub === 'rev-parse' && next && !next.startsWith('-')) return 'rev-parse <rev>';
  if (sub === 'worktree' || sub === 'config' || sub === 'rev-parse') return `${sub} ${next ?? ''}`.trim();
  return sub ?? '?';
}

function kindOf(command: string): string {
  if (command === process.execPath || command.endsWith('/node')) return 'node (the agent or a helper)';
  return command.split('/').pop() ?? command;
}
