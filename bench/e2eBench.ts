import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ProjectStore } from '../src/core/backend/projectStore';
import { GuardEvent, guardLogPath } from '../src/core/guards/guardLog';
import { Run } from '../src/core/model/run';
import { Task } from '../src/core/model/task';

const run = promisify(execFile);
const CLI = resolve('dist/cli.js');
/** Tasks drained per history size: `SWITCHYARD_BENCH_E2E_TASKS` (default 100). */
const TASKS = Number(process.env.SWITCHYARD_BENCH_E2E_TASKS ?? 100);
/** Tasks of the separate drain under strace that counts the processes started. */
const COUNTED = Number(process.env.SWITCHYARD_BENCH_E2E_COUNTED ?? 20);
const HISTORY = (process.env.SWITCHYARD_BENCH_E2E_HISTORY ?? '0,1000,10000').split(',').map(Number);
/**
 * Rounds of every history size, interleaved (0, 1,000, 10,000, 0, …): a machine that drifts slower during the run
 * (this VM does, by 10–20 %) then weighs on every size alike. Figures are medians over rounds, with their range.
 */
const ROUNDS = Number(process.env.SWITCHYARD_BENCH_E2E_ROUNDS ?? 3);
const COMMAND = 'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"';
/** The physical floor of one task: a worktree, the change, a commit, the worktree removed. */
const FLOOR = `set -e
for i in $(seq 1 "$1"); do
  git worktree add -q -b "floor-$2-$i" "../floor-$2-$i"
  echo "$i" > "../floor-$2-$i/README.md"
  git -C "../floor-$2-$i" commit -qam "floor $i"
  git worktree remove "../floor-$2-$i"
done`;

/**
 * Runs a command as a child subreaper (prctl PR_SET_CHILD_SUBREAPER, see prctl(2)) and waits for every process under
 * it, so the CPU of processes that outlive their parent for a moment (the process-group supervisor, which exits when
 * the drain that started it has gone) is counted too; then prints the children's peak RSS (KB) and user and system
 * seconds (getrusage RUSAGE_CHILDREN) on stderr, and exits as the command did. GNU time counts only what the command
 * waited for.
 */
const SUBREAPER = `import ctypes, os, resource, sys
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
status = 0
while True:
    try:
        done, st = os.wait()
    except ChildProcessError:
        break
    if done == pid:
        status = os.waitstatus_to_exitcode(st)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_maxrss} {r.ru_utime} {r.ru_stime}", file=sys.stderr)
sys.exit(status)
`;

interface Row {
  history: number;
  floorMs: number;
  taskMs: number;
  /** CPU (user + system) of the drain and every process under it (see SUBREAPER), per task. */
  cpuMs: number;
  /** Counted in the first round only (under strace, on a separate drain). */
  processes?: number;
  floorProcesses?: number;
  statusMs: number;
  statusMaxMs: number;
  rssMb: number;
}

/**
 * The real CLI (`dist/cli.js run`, default concurrency, a one-file `command` lane) draining tasks on top of 0, 1,000
 * and 10,000 finished tasks of history, against the floor loop measured in the same repository just before. The
 * history is written through the store (as finished tasks with a run each), not by running it. Processes are
 * counted by `strace -f` (successful `execve`) on a separate, smaller drain, so tracing slows no timed figure.
 */
export async function benchE2e(): Promise<void> {
  const rounds: Row[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const rows: Row[] = [];
    for (const history of HISTORY) rows.push(await measure(history, round === 0));
    rounds.push(rows);
  }
  console.log(
    `${TASKS} tasks drained by \`node dist/cli.js run\` (command lane \`${COMMAND}\`), on top of finished history (with the guard log such a history leaves: 2 verdicts a task); ${ROUNDS} rounds of every size, interleaved`,
  );
  console.log(
    `${'history'.padStart(8)}${'floor ms'.padStart(10)}${'ms/task'.padStart(22)}${'÷floor'.padStart(22)}` +
      `${'÷0'.padStart(22)}${'CPU ms'.padStart(22)}${'procs/task'.padStart(12)}${'floor procs'.padStart(13)}` +
      `${'status ms'.padStart(17)}${'peak RSS'.padStart(12)}`,
  );
  for (const [i, history] of HISTORY.entries()) {
    const rows = rounds.map((r) => r[i]!);
    const first = rows[0]!;
    const status = `${median(rows.map((r) => r.statusMs)).toFixed(0)} (max ${max(rows.map((r) => r.statusMaxMs))})`;
    console.log(
      [
        String(history).padStart(8),
        median(rows.map((r) => r.floorMs))
          .toFixed(1)
          .padStart(10),
        spread(
          rows.map((r) => r.taskMs),
          1,
        ),
        spread(
          rows.map((r) => r.taskMs / r.floorMs),
          2,
          'x',
        ),
        // Within a round (the same minute of the machine): this size against the first.
        spread(
          rounds.map((r) => r[i]!.taskMs / r[0]!.taskMs),
          2,
          'x',
        ),
        spread(
          rows.map((r) => r.cpuMs),
          1,
        ),
        first.processes!.toFixed(1).padStart(12),
        first.floorProcesses!.toFixed(1).padStart(13),
        status.padStart(17),
        `${max(rows.map((r) => r.rssMb))} MB`.padStart(12),
      ].join(''),
    );
  }
  console.log(
    'medians over the rounds (range); ms/task: wall time of the drain; ÷0: against the first size in the same round; CPU ms: user + system of the drain and every process under it per task (getrusage as their subreaper, the supervisor and what it starts included); status: median of `node dist/cli.js status` (5 runs a round; max: the slowest of all); peak RSS: the largest process of the drain, the highest of the rounds',
  );
}

/** `median (lowest–highest)`, padded to a column. */
function spread(values: readonly number[], digits: number, unit = ''): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v: number) => `${v.toFixed(digits)}${unit}`;
  return ` ${f(median(sorted))} (${f(sorted[0]!)}–${f(sorted.at(-1)!)})`.padStart(22);
}

function max(values: readonly number[]): string {
  return Math.max(...values).toFixed(0);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
benchE2e.title = 'End to end: the real CLI draining tasks on top of 0, 1,000 and 10,000 finished tasks, vs the floor';

async function measure(history: number, countProcesses_: boolean): Promise<Row> {
  const top = await mkdtemp(join(tmpdir(), 'switchyard-bench-e2e-'));
  const dir = join(top, 'repo');
  try {
    await run('git', ['init', '-q', '-b', 'main', dir]);
    const git = (...args: string[]) => run('git', ['-C', dir, ...args]);
    await git('config', 'user.name', 'Bench');
    await git('config', 'user.email', 'bench@localhost');
    await writeFile(join(dir, 'README.md'), '# bench\n');
    await git('add', '.');
    await git('commit', '-qm', 'initial');
    const head = (await git('rev-parse', 'HEAD')).stdout.trim();
    await writeHistory(dir, history, head);
    await writeFile(join(top, 'floor.sh'), FLOOR);
    const floor = await timed(() => run('bash', [join(top, 'floor.sh'), String(TASKS), 'timed'], { cwd: dir }));
    await addTasks(dir, top, TASKS, 'timed');
    const drain = await timed(() =>
      run('python3', ['-c', SUBREAPER, 'node', CLI, 'run', '--repo', dir], { maxBuffer: 64 * 1024 * 1024 }),
    );
    const [rssKb, user, sys] = drain.value.stderr.trim().split('\n').at(-1)!.split(' ').map(Number) as [
      number,
      number,
      number,
    ];
    const done = (await (await ProjectStore.open(dir)).read()).tasks.filter((t) => t.state === 'DONE').length;
    if (done !== history + TASKS) throw new Error(`only ${done - history} of ${TASKS} bench tasks ended DONE`);
    const status: number[] = [];
    for (let i = 0; i < 5; i++) status.push((await timed(() => run('node', [CLI, 'status', '--repo', dir]))).ms);
    status.sort((a, b) => a - b);
    const counted = countProcesses_ ? await countBoth(dir, top) : {};
    return {
      history,
      floorMs: floor.ms / TASKS,
      taskMs: drain.ms / TASKS,
      cpuMs: ((user + sys) * 1000) / TASKS,
      ...counted,
      statusMs: status[2]!,
      statusMaxMs: status[4]!,
      rssMb: rssKb / 1024,
    };
  } finally {
    await rm(top, { recursive: true, force: true });
  }
}

/** Child processes per task of a drain and of the floor loop, each over COUNTED tasks. */
async function countBoth(dir: string, top: string): Promise<{ processes: number; floorProcesses: number }> {
  await addTasks(dir, top, COUNTED, 'counted');
  const processes = await countProcesses(top, ['node', CLI, 'run', '--repo', dir], dir);
  const floorProcesses = await countProcesses(top, ['bash', join(top, 'floor.sh'), String(COUNTED), 'count'], dir);
  // The traced command itself (node, bash) is not a child.
  return { processes: (processes - 1) / COUNTED, floorProcesses: (floorProcesses - 1) / COUNTED };
}

/**
 * `history` finished tasks, each with one succeeded run, written through the store in batches of 1,000, and the guard
 * verdicts a drain records for each (conflict markers and secret scan on its change), so `status` reads a log of the
 * length such a history leaves.
 */
export async function writeHistory(dir: string, history: number, head: string): Promise<void> {
  const store = await ProjectStore.open(dir);
  await store.update((s) => {
    s.settings.laneSettings.command = { command: COMMAND };
  });
  for (let from = 1; from <= history; from += 1000) {
    const to = Math.min(history, from + 999);
    await store.update((s) => {
      for (let n = from; n <= to; n++) {
        const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
        s.tasks.push(
          Task.parse({
            id: `t${n}`,
            spec: { title: `history ${n}`, spec: `an earlier one-file change ${n}` },
            state: 'DONE',
            baseCommit: head,
            createdAt: at,
            updatedAt: at,
            attempts: 1,
            generation: 0,
            lastRunId: `t${n}.1`,
          }),
        );
        s.runs.push(
          Run.parse({
            id: `t${n}.1`,
            taskId: `t${n}`,
            lane: 'command',
            attempt: 1,
            generation: 0,
            state: 'SUCCEEDED',
            branch: `switchyard/t${n}.1`,
            worktree: join(dir, '.switchyard', 'worktrees', `t${n}.1`),
            baseCommit: head,
            startedAt: at,
            endedAt: at,
            durationMs: 150,
          }),
        );
      }
      s.nextTaskNumber = to + 1;
    });
  }
  const verdicts: string[] = [];
  for (let n = 1; n <= history; n++) {
    const ts = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
    for (const [guard, rule] of GUARDS)
      verdicts.push(
        JSON.stringify(
          GuardEvent.parse({
            v: 1,
            ts,
            guard,
            rule,
            evidence: [],
            durationMs: 1.5,
            subject: `change ${head.slice(0, 12)}..${head.slice(0, 12)}`,
            runId: `t${n}.1`,
            type: 'guard.verdict',
            verdict: 'pass',
          }),
        ),
      );
  }
  if (verdicts.length) await appendFile(guardLogPath(dir), `${verdicts.join('\n')}\n`);
}

/** The guards a drain runs on each change (see `guardRunDiff`), as they name themselves in the log. */
const GUARDS = [
  ['conflict-markers', 'conflict-marker'],
  ['secret-scan', 'secret'],
] as const;

async function addTasks(dir: string, top: string, count: number, label: string): Promise<void> {
  const file = join(top, `${label}.json`);
  await writeFile(file, JSON.stringify(Array.from({ length: count }, (_, i) => ({ title: `${label} ${i + 1}` }))));
  await run('node', [CLI, 'task', 'add', '--from', file, '--repo', dir]);
}

/** Processes started by `command` and everything it starts: successful `execve` calls under `strace -f`. */
async function countProcesses(top: string, command: string[], cwd: string): Promise<number> {
  const trace = join(top, 'trace.txt');
  await run('strace', ['-f', '-qq', '-e', 'trace=execve', '-o', trace, ...command], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = (await readFile(trace, 'utf8')).split('\n');
  await rm(trace, { force: true });
  return lines.filter((l) => /execve(\(| resumed)/.test(l) && /= 0$/.test(l)).length;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}
