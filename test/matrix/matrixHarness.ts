import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Project } from '../../src/core/project/project';
import type { ProjectSettings } from '../../src/core/store/projectState';
import { registryWithBuiltins } from '../../src/lanes/builtinLanes';
import { checkRun } from '../fixtures/fakeGitHub';
import { startGitHubDouble, type GitHubDouble } from '../fixtures/gitHubDouble';
import { TOKEN } from '../helpers/pullRequestProject';
import { killPids, processesIn } from '../helpers/realCodex';
import { until } from '../helpers/until';
import { killGroup, runCli, sharedCliBundle } from '../integration/plugins/apiLaneHarness';
import { Brain, type Behaviour } from './brain';
import { NPM_SETUP, makeGreetProject } from './greetProject';
import { isInside, startLane, type MatrixLane } from './matrixLanes';

export interface MatrixTask {
  /** The tag the scripted model knows the task by (`[matrix-task:<tag>]` in its spec). */
  tag: string;
  title: string;
  spec: string;
  acceptance?: string;
}

export interface CellOptions {
  /** Files of the project besides lib/greet.js and its test (a scenario's own tests). */
  files?: Record<string, string>;
  tasks: MatrixTask[];
  behaviours: Record<string, Behaviour>;
  /** Attempts per task on the lane (default 3). */
  attempts?: number;
  /**
   * Pull-request mode against a GitHub double whose required check `ci/test` registers `lateMs` after a head is first
   * seen; on the first head it fails with `failFirst` as its output text, on later heads it passes.
   */
  pullRequest?: { lateMs: number; failFirst?: string };
  settings?: (s: ProjectSettings) => void;
}

interface RunRecord {
  id: string;
  taskId: string;
  state: string;
  attempt: number;
  baseCommit: string;
  headCommit?: string;
  failureCode?: string;
  failureReason?: string;
  feedback?: string;
  startedAt: string;
  usage?: { inputTokens: number; outputTokens: number; costUsd: number };
  integration?: { branch: string; commit: string };
  resumeFrom?: { runId: string; sessionId?: string; commit?: string };
  pullRequest?: { number: number };
}
interface TaskRecord {
  id: string;
  state: string;
  title: string;
  failureReason?: string;
}
export interface MatrixState {
  tasks: TaskRecord[];
  runs: RunRecord[];
}

/**
 * One cell of the scenario matrix: a real Node project (greetProject.ts) opened with one lane against its scripted
 * model (brain.ts), the given tasks added, the CLI bundled and run as a real process group; `checks` collects every
 * assertion's failure so that a cell reports all that is wrong with it, not only the first.
 */
export async function openCell(lane: MatrixLane, options: CellOptions) {
  const cli = await sharedCliBundle();
  const project = await makeGreetProject(options.files);
  const side = join(project.root, 'side');
  await mkdir(side, { recursive: true });
  const kit = await startLane(lane, side);
  const stateFile = join(project.dir, '.switchyard', 'state.json');
  const brain = new Brain(kit.wire, options.behaviours, stateFile);
  brain.attach(kit.server, kit.script);

  let gh: GitHubDouble | undefined;
  let bare: string | undefined;
  if (options.pullRequest) {
    bare = join(project.root, 'remote', 'o', 'r.git');
    execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', bare]);
    await project.git('push', bare, 'main');
    await project.git('remote', 'add', 'origin', bare);
    const { lateMs, failFirst } = options.pullRequest;
    const heads: string[] = [];
    gh = await startGitHubDouble({
      bare,
      tokens: new Set([TOKEN]),
      protection: { contexts: ['ci/test'] },
      // The required check is not there at all until `lateMs` after the head was first seen.
      checks: ({ sha, sinceMs }) => {
        if (!heads.includes(sha)) heads.push(sha);
        if (sinceMs < lateMs) return [];
        return failFirst && heads.indexOf(sha) === 0
          ? [checkRun(1, 'ci/test', 'completed', 'failure', { title: 'npm test failed', text: failFirst })]
          : [checkRun(2, 'ci/test', 'completed', 'success')];
      },
    });
  }
  const env: Record<string, string> = {
    ...kit.env,
    XDG_CONFIG_HOME: join(side, 'config'),
    // The token is bound to the double's host the way a user binds one to a GitHub Enterprise Server (GitHub CLI's
    // variables): a GITHUB_TOKEN belongs to github.com and goes nowhere else.
    ...(gh ? { GH_HOST: new URL(gh.url).host, GH_ENTERPRISE_TOKEN: TOKEN } : {}),
  };
  const opened = await Project.open(project.dir, {
    registry: registryWithBuiltins(),
    parentEnv: { PATH: process.env.PATH, ...env },
  });
  const taskIds = new Map<string, string>();
  try {
    await opened.settings.update((s) => {
      s.defaultLane = lane;
      s.laneSettings[lane] = kit.settings;
      s.retryCaps[lane] = options.attempts ?? 3;
      s.leaseMs = 60_000;
      s.retryBackoff = { ...s.retryBackoff, initialMs: 0, maxMs: 0 };
      s.worktree.setup = NPM_SETUP;
      if (gh) {
        s.integration.mode = 'pull-request';
        s.integration.base = 'main';
        s.integration.ciPollSeconds = 0.1;
        s.integration.ciTimeoutSeconds = 60;
        s.github.apiUrl = gh.url;
        s.github.repository = 'o/r';
      }
      options.settings?.(s);
    });
    for (const t of options.tasks) {
      const task = await opened.tasks.add({
        title: t.title,
        spec: `[matrix-task:${t.tag}]\n${t.spec}`,
        lane,
        ...(t.acceptance ? { acceptance: t.acceptance } : {}),
      });
      taskIds.set(t.tag, task.id);
    }
  } finally {
    await opened.close();
  }

  const state = (): MatrixState => JSON.parse(readFileSync(stateFile, 'utf8'));
  const taskId = (tag: string): string => taskIds.get(tag)!;
  const checks = new Checks();
  return {
    lane,
    kit,
    brain,
    project,
    gh,
    bare,
    checks,
    taskId,
    state,
    /** `switchyard <args>` as its own process group (a test can SIGKILL the group). */
    sy: (args: string[]) => runCli(cli, project.dir, args, env),
    killGroup,
    async cleanup() {
      if (process.env.MATRIX_DEBUG)
        for (const r of state().runs)
          console.log(
            `${r.id} ${r.state} ${r.startedAt} ${(r as { endedAt?: string }).endedAt} ${r.failureCode ?? ''}`,
          );
      killPids(await processesIn(project.root));
      await kit.server.stop();
      await gh?.close();
      await project.cleanup();
    },
  };
}
export type Cell = Awaited<ReturnType<typeof openCell>>;

/** Collects the failures of named checks; `done()` fails with all of them. */
export class Checks {
  readonly failures: string[] = [];
  async that(name: string, check: () => void | Promise<void>): Promise<void> {
    try {
      await check();
    } catch (error) {
      this.failures.push(`✗ ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  done(): void {
    if (this.failures.length)
      assert.fail(
        `${this.failures.length} check(s) failed:\n${this.failures.join('\n').replace(/\n(?!✗)/g, '\n    ')}`,
      );
  }
}

/** Every task ended DONE. */
export function allDone(cell: Cell): void {
  const s = cell.state();
  const notDone = s.tasks.filter((t) => t.state !== 'DONE');
  assert.deepEqual(
    notDone.map((t) => `${t.id} ${t.state}: ${t.failureReason ?? ''}`),
    [],
    'every task DONE',
  );
}

/** Tokens and cost recorded on each task's runs equal what the scripted server answered for that task. */
export function usageMatches(cell: Cell): void {
  const s = cell.state();
  const problems: string[] = [];
  for (const [tag, answered] of cell.brain.answered) {
    if (!tag) continue;
    const runs = s.runs.filter((r) => r.taskId === cell.taskId(tag));
    const price = cell.kit.price;
    if (!price) {
      const recorded = runs.filter((r) => r.usage);
      if (recorded.length) problems.push(`${cell.taskId(tag)}: the lane reports no usage, yet runs record some`);
      continue;
    }
    const sum = runs.reduce(
      (a, r) => ({
        input: a.input + (r.usage?.inputTokens ?? 0),
        output: a.output + (r.usage?.outputTokens ?? 0),
        cost: a.cost + (r.usage?.costUsd ?? 0),
      }),
      { input: 0, output: 0, cost: 0 },
    );
    const cost = (answered.input * price.input + answered.output * price.output) / 1e6;
    const per = runs.map(
      (r) => `${r.id}: ${r.usage ? `${r.usage.inputTokens}+${r.usage.outputTokens} $${r.usage.costUsd}` : 'none'}`,
    );
    if (sum.input !== answered.input || sum.output !== answered.output || Math.abs(sum.cost - cost) > 1e-9)
      problems.push(
        `${cell.taskId(tag)}: the server answered ${answered.turns} call(s), ${answered.input}+${answered.output} ` +
          `tokens, $${cost.toFixed(6)}; recorded ${sum.input}+${sum.output} tokens, $${sum.cost.toFixed(6)} (${per.join(', ')})`,
      );
  }
  assert.deepEqual(problems, [], 'recorded usage = answered usage');
}

/** Every write the model made went to the worktree of a RUNNING run of its task. */
export function writesInside(cell: Cell): void {
  const outside = cell.brain.writes.filter(
    (w) => !w.running.some((r) => r.taskId === cell.taskId(w.tag) && isInside(w.path, r.worktree)),
  );
  assert.ok(cell.brain.writes.length > 0, 'the model wrote something');
  const summary = new Map<string, number>();
  for (const w of outside) {
    const running = w.running.map((r) => r.worktree).join(', ') || 'none';
    const line = `${cell.taskId(w.tag)} wrote ${w.path} while running: ${running}`;
    summary.set(line, (summary.get(line) ?? 0) + 1);
  }
  assert.deepEqual(
    [...summary].map(
      ([line, n]) => `${line} (${n} request(s), first ${outside.find((w) => line.includes(w.path))?.request})`,
    ),
    [],
    'writes outside the run worktree',
  );
}

/** The requests of the task that carry feedback on a failed attempt: at least one, and each names `needle`. */
export function fixRequestNames(cell: Cell, tag: string, needle: string): void {
  const fixes = cell.brain.seen.filter((r) => r.tag === tag && /Feedback on the previous attempt/.test(r.text));
  assert.ok(fixes.length > 0, `no request of ${cell.taskId(tag)} carried feedback on the previous attempt`);
  const missing = fixes.filter((r) => !r.text.includes(needle));
  if (missing.length) {
    const feedback = cell
      .state()
      .runs.filter((r) => r.taskId === cell.taskId(tag) && r.feedback)
      .map((r) => r.feedback);
    assert.fail(
      `${missing.length} of ${fixes.length} fix request(s) do not name "${needle}"; the feedback given was: ` +
        JSON.stringify(feedback.at(-1)?.slice(0, 400)),
    );
  }
}

/** No process runs in the project's folders (worktrees, side folders), within `ms`. */
export async function noProcessLeft(cell: Cell, ms = 5_000): Promise<void> {
  try {
    await until('no process left in the project', async () => (await processesIn(cell.project.root)).length === 0, ms);
  } catch {
    const pids = await processesIn(cell.project.root);
    const what = pids.map((pid) => {
      const cmd = (() => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 100);
        } catch {
          return '?';
        }
      })();
      return `${pid} ${cmd}`;
    });
    assert.fail(`${pids.length} process(es) still running after ${ms} ms: ${what.join('; ')}`);
  }
}

/** The commits that reached `target` since the project's first commit, merges left out: one per task. */
export function oneCommitPerTask(cell: Cell, target: string, tasks: number, gitDir = cell.project.dir): void {
  const git = (args: string[]) => execFileSync('git', args, { cwd: gitDir, encoding: 'utf8', stdio: 'pipe' });
  try {
    git(['rev-parse', '--verify', '--quiet', `refs/heads/${target}`]);
  } catch {
    assert.fail(`${target} does not exist: nothing reached it`);
  }
  const log = git(['log', '--no-merges', '--format=%h %s', `${cell.project.base}..${target}`])
    .trim()
    .split('\n')
    .filter(Boolean);
  assert.equal(log.length, tasks, `commits that reached ${target}: ${log.join(' | ')}`);
}

/** The run's events log, as text. */
export function runLog(cell: Cell, runId: string): Promise<string> {
  return readFile(join(cell.project.dir, '.switchyard', 'runs', runId, 'events.jsonl'), 'utf8').catch(() => '');
}
