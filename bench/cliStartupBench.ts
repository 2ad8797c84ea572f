import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { writeHistory } from './e2eBench';

const run = promisify(execFile);
const ROUNDS = 11;
const HISTORY = 10_000;
const TIME = '/usr/bin/time';

interface Sample {
  wallMs: number;
  /** User + system CPU of the process (GNU time), when /usr/bin/time exists. */
  cpuMs?: number;
}

/**
 * The CLI's start-up as a user waits for it: `node dist/cli.js status` on a project with 10,000 finished tasks and
 * `node dist/cli.js help` (no project), against `node -e 0`, each a fresh process, interleaved round by round;
 * medians and ranges of wall and CPU time. The first `status` runs with an empty code cache (a new install or a new
 * build: the loader compiles the bundle and writes the cache), the rounds after it with the cache.
 */
export async function benchCliStartup(): Promise<void> {
  const cli = resolve('dist/cli.js');
  if (!existsSync(cli) || !existsSync(resolve('dist/cliMain.js'))) {
    console.log('dist/cli.js or dist/cliMain.js missing: run npm run build');
    return;
  }
  const top = await mkdtemp(join(tmpdir(), 'switchyard-bench-cli-'));
  try {
    const dir = join(top, 'repo');
    await mkdir(dir);
    const git = (...args: string[]) => run('git', ['-C', dir, ...args]);
    await git('init', '-q', '-b', 'main');
    await git('config', 'user.name', 'Bench');
    await git('config', 'user.email', 'bench@localhost');
    await writeFile(join(dir, 'README.md'), '# bench\n');
    await git('add', '.');
    await git('commit', '-qm', 'initial');
    await writeHistory(dir, HISTORY, (await git('rev-parse', 'HEAD')).stdout.trim());
    // A code cache of this run's own, so the cold figure is cold.
    const env = { ...process.env, XDG_CACHE_HOME: join(top, 'cache') };
    const cold = await sample([cli, 'status'], dir, env);
    const rows = { node: [] as Sample[], help: [] as Sample[], status: [] as Sample[] };
    for (let i = 0; i < 1 + ROUNDS; i++) {
      const node = await sample(['-e', '0'], dir, env);
      const help = await sample([cli, 'help'], dir, env);
      const status = await sample([cli, 'status'], dir, env);
      if (i === 0) continue; // warm-up: the page cache
      rows.node.push(node);
      rows.help.push(help);
      rows.status.push(status);
    }
    console.log(`${ROUNDS} rounds, fresh processes; ${HISTORY.toLocaleString('en')} finished tasks in the project`);
    console.log(`node -e 0 (floor)                             ${spread(rows.node)}`);
    console.log(`node dist/cli.js help                         ${spread(rows.help)}`);
    console.log(`node dist/cli.js status                       ${spread(rows.status)}  (target ≤ 150 ms)`);
    console.log(`  the first status, with no code cache yet    ${spread([cold])}`);
  } finally {
    await rm(top, { recursive: true, force: true });
  }
}
benchCliStartup.title = 'CLI start-up: switchyard status on 10,000 finished tasks, help, vs node -e 0';

/** One fresh `node …` process: wall time, and its CPU through GNU time when there is one. */
function sample(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  const timed = existsSync(TIME);
  const [command, argv] = timed ? [TIME, ['-f', '@cpu %U %S', process.execPath, ...args]] : [process.execPath, args];
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return fail(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr}`));
      const cpu = /@cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      done(cpu ? { wallMs, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 } : { wallMs });
    });
  });
}

/** Median and range of wall time, and of CPU time when measured: `12.3 ms (11.0–15.2), CPU 10.0 ms (9–12)`. */
function spread(samples: Sample[]): string {
  const wall = range(samples.map((s) => s.wallMs));
  const cpu = samples.every((s) => s.cpuMs !== undefined) ? range(samples.map((s) => s.cpuMs!)) : undefined;
  return cpu ? `${wall}, CPU ${cpu}` : wall;
}

function range(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `${mid.toFixed(1).padStart(6)} ms (${sorted[0]!.toFixed(0)}–${sorted[sorted.length - 1]!.toFixed(0)})`;
}
