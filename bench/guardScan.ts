import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFLICT_MARKER_ERE } from '../src/core/guards/conflictMarkers';
import { scanTreeForConflictMarkers } from '../src/core/guards/fullTreeScan';
import { runPrePushGuard } from '../src/core/guards/prePushGuard';

const FILES = 50_000;
const CHANGED = 10;
const RUNS = 9;

/**
 * The pre-push guard on a generated 50 000-file repository: a 10-file push
 * (in process, and the installed hook as git runs it), and a full-tree
 * conflict-marker check against a raw `git grep` over the same tree,
 * measured in the same run. Targets: 10-file push ≤ 150 ms; full tree
 * ≤ 1.3× raw git grep.
 */
export async function benchGuardScan(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-guard-'));
  try {
    const started = performance.now();
    const { work, base, head } = await makeRepo(dir);
    console.log(
      `${FILES} files generated and cloned in ${((performance.now() - started) / 1000).toFixed(1)} s; a push of ${CHANGED} changed files`,
    );
    const stdin = `refs/heads/main ${head} refs/heads/main ${base}\n`;

    const markersOnly = await median(() => runPrePushGuard({ cwd: work, remote: 'origin', stdin, secrets: false }));
    const allStages = await median(() => runPrePushGuard({ cwd: work, remote: 'origin', stdin }));
    console.log(`10-file push, markers + policy (in process)          ${fmt(markersOnly)}  (target ≤ 150 ms)`);
    console.log(`10-file push, markers + policy + secrets (in process) ${fmt(allStages)}  (target ≤ 150 ms)`);
    const cli = join(process.cwd(), 'dist/cli.js');
    const hookJs = join(process.cwd(), 'dist/hook.js');
    if ((await exists(cli)) && (await exists(hookJs))) {
      await hookAsGitRunsIt(work, cli, stdin, allStages);
    } else {
      console.log('dist/cli.js or dist/hook.js missing: the hook process not measured (run npm run build)');
    }

    const raw = ['grep', '-n', '-I', '-E', CONFLICT_MARKER_ERE, head, '--'];
    let found = 0;
    const times = { raw: [] as number[], guard: [] as number[] };
    for (let i = 0; i < 1 + 5; i++) {
      const r = await time(() => run('git', raw, work, undefined, [0, 1]));
      const g = await time(async () => (found = (await scanTreeForConflictMarkers(work, head)).length));
      if (i === 0) continue; // warm-up
      times.raw.push(r);
      times.guard.push(g);
    }
    const rawMs = mid(times.raw);
    const guardMs = mid(times.guard);
    console.log(`full tree: raw git grep (baseline)                    ${fmt(rawMs)}  1.00x`);
    console.log(
      `full tree: guard (git grep -z + parse, ${found} found)      ${fmt(guardMs)}  ${(guardMs / rawMs).toFixed(2)}x  (target ≤ 1.30x)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
benchGuardScan.title = 'Pre-push guard on a 50k-file repository vs raw git grep';

/**
 * The hook as git runs it: `git push --dry-run` (git runs the pre-push hook for a dry run too) with the installed hook
 * against the same push with `--no-verify`, interleaved round by round; the hook's share is the difference of the
 * medians. Beside it: the installed hook script run alone as git runs it (sh, its stdin and arguments), for the hook
 * entry (dist/hook.js) and for a hook installed before it (node dist/cli.js guard pre-push), and `node -e 0`.
 */
async function hookAsGitRunsIt(work: string, cli: string, stdin: string, inProcess: number): Promise<void> {
  const hookFile = join(work, '.git', 'hooks', 'pre-push');
  const install = async (command?: string): Promise<void> => {
    await run(process.execPath, [cli, 'guard', 'install', ...(command ? ['--hook-command', command] : [])], work);
  };
  const url = join(work, '..', 'remote.git');
  const rounds = { push: [] as number[], noVerify: [] as number[], hook: [] as number[], node: [] as number[] };
  await install();
  for (let i = 0; i < 2 + RUNS; i++) {
    const withHook = await time(() => run('git', ['push', '--dry-run', '-q', 'origin', 'main'], work));
    const without = await time(() => run('git', ['push', '--dry-run', '-q', '--no-verify', 'origin', 'main'], work));
    const hook = await time(() => run('sh', [hookFile, 'origin', url], work, stdin));
    const node = await time(() => run(process.execPath, ['-e', '0'], work));
    if (i < 2) continue; // warm-up
    rounds.push.push(withHook);
    rounds.noVerify.push(without);
    rounds.hook.push(hook);
    rounds.node.push(node);
  }
  await install(`${process.execPath} ${cli}`);
  const oldHook: number[] = [];
  for (let i = 0; i < 2 + RUNS; i++) {
    const t = await time(() => run('sh', [hookFile, 'origin', url], work, stdin));
    if (i >= 2) oldHook.push(t);
  }
  const share = mid(rounds.push) - mid(rounds.noVerify);
  console.log(`git push --dry-run with the hook                      ${spread(rounds.push)}`);
  console.log(`git push --dry-run --no-verify                        ${spread(rounds.noVerify)}`);
  console.log(`the hook as git runs it (difference of medians)       ${fmt(share)}  (target ≤ 150 ms)`);
  console.log(`the installed hook alone: sh + node dist/hook.js      ${spread(rounds.hook)}  (target ≤ 150 ms)`);
  console.log(`  an older hook: sh + node dist/cli.js guard pre-push ${spread(oldHook)}`);
  console.log(`  node -e 0                                           ${spread(rounds.node)}`);
  console.log(`  the guard in process (all stages, from above)       ${fmt(inProcess)}`);
}

/** Median and range: `  12.3 ms (11.0–15.2)`. */
function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${fmt(mid(sorted))} (${sorted[0]!.toFixed(0)}–${sorted[sorted.length - 1]!.toFixed(0)})`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function fmt(ms: number): string {
  return `${ms.toFixed(1).padStart(7)} ms`;
}

function mid(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(body: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await body();
  return performance.now() - t;
}

async function median(body: () => Promise<unknown>): Promise<number> {
  await body();
  await body(); // warm-up: secretlint's first load, git's caches
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await time(body));
  return mid(times);
}

function run(cmd: string, args: string[], cwd: string, input?: string, ok: number[] = [0, 1]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
    child.on('error', reject);
    child.on('close', (code) =>
      ok.includes(code ?? -1) ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}: ${err}`)),
    );
  });
}

/**
 * A bare remote with one 50k-file commit (a few files carry conflict markers), a clone, and a local commit changing 10
 * files.
 */
async function makeRepo(dir: string): Promise<{ work: string; base: string; head: string }> {
  const remote = join(dir, 'remote.git');
  const work = join(dir, 'work');
  await run('git', ['init', '-q', '--bare', '-b', 'main', remote], dir);
  const lines: string[] = [];
  const files: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const path = i % 10 === 0 ? `docs/d${i % 97}/page${i}.md` : `src/m${i % 100}/p${i % 53}/file${i}.ts`;
    files.push(path);
    const body = path.endsWith('.md')
      ? `Page ${i}\n=======\n\nSome text for page ${i}.\n\n| a | b |\n|---|---|\n| ${i} | ${i * 2} |\n`
      : `// file ${i}\nexport function f${i}(x: number): number {\n  const y = x * ${i % 7};\n  return y + ` +
        `${i};\n}\n${i % 16_667 === 5 ? `<<<<<<< HEAD\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> other\n` : ''}`;
    lines.push(`blob\nmark :${i + 1}\ndata ${Buffer.byteLength(body)}\n${body}`);
  }
  lines.push(`commit refs/heads/main\ncommitter Bench <bench@localhost> 1700000000 +0000\ndata 8\ninitial\n`);
  for (const [i, path] of files.entries()) lines.push(`M 100644 :${i + 1} ${path}`);
  await run('git', ['fast-import', '--quiet'], remote, `${lines.join('\n')}\n`);
  await run('git', ['clone', '-q', '--no-checkout', remote, work], dir);
  const base = (await run('git', ['rev-parse', 'HEAD'], work)).trim();
  const change: string[] = [
    `commit refs/heads/main\ncommitter Bench <bench@localhost> 1700000100 +0000\ndata 7\nchange\nfrom ${base}`,
  ];
  for (let i = 0; i < CHANGED; i++) {
    const path = i < CHANGED - 2 ? files[i * 997 + 1]! : `src/new/added${i}.ts`;
    const body = `// changed ${i}\nexport const v${i} = ${i};\n`.repeat(20);
    change.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(body)}\n${body}`);
  }
  await run('git', ['fast-import', '--quiet', '--force'], work, `${change.join('\n')}\n`);
  const head = (await run('git', ['rev-parse', 'refs/heads/main'], work)).trim();
  return { work, base, head };
}
