import { loadModule } from '../lanes/loadModule';
import type { CommandSpec } from './commandSpec';
import { type OptionSpec, flag, int, text } from './optionSpec';

/**
 * A command's handler, loaded on its first call: a command evaluates only its own modules (and what they import), not
 * those of every other command. Through `loadModule`: `require` in the bundle and wherever the sources run as
 * CommonJS, `import()` where they run as ES modules (a test file that imports an ES-only package, such as execa, is
 * loaded that way), so a module is never loaded twice.
 */
function lazy<M>(
  viaRequire: () => M,
  viaImport: () => Promise<M>,
  pick: (module: M) => CommandSpec['run'],
): CommandSpec['run'] {
  return async (ctx) => pick(await loadModule(viaRequire, viaImport))(ctx);
}

const json = flag('print JSON instead of text');
const local = flag("this machine's override (the state's settings) instead of the committed .switchyard/config.json");
const why = text('TEXT', 'the reason, recorded with the change (who: git user.email)');
const concurrency = int('N', 'at most N runs at once', 1);
const ratio = (help: string): OptionSpec => ({ help, placeholder: 'R', value: { kind: 'ratio' } });
const thresholds = {
  'hold-below': ratio('roll back when the canary completes less than R of the baseline (default 0.7)'),
  'expand-at-cost': ratio('expand when the canary costs at most R of the baseline (default 0.3)'),
  window: {
    help: 'how far back tasks count, like 90m, 12h or 7d (default 7d)',
    placeholder: 'DURATION',
    value: { kind: 'duration' },
  },
  'min-samples': int('N', 'tasks each side needs before a verdict (default 10)', 1),
} satisfies Record<string, OptionSpec>;

/** Every CLI command, in the order of the usage text; the usage and each command's options come from here. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'demo',
    run: lazy(
      () => require('./commands/demoCommand') as typeof import('./commands/demoCommand'),
      () => import('./commands/demoCommand'),
      (m) => m.demoCommand,
    ),
    forms: [
      {
        options: { keep: flag('keep the throwaway repository') },
        help: 'run two tasks on the command lane in a throwaway repository',
      },
    ],
  },
  {
    name: 'lanes',
    run: lazy(
      () => require('./commands/lanesCommand') as typeof import('./commands/lanesCommand'),
      () => import('./commands/lanesCommand'),
      (m) => m.lanesCommand,
    ),
    opensProject: true,
    forms: [
      { options: { json }, help: 'list registered lanes and their settings' },
      {
        sub: 'set',
        args: '<lane> key=value…',
        help: "store lane settings for this project, checked against the lane's documented settings (text as typed; numbers; JSON lists/objects)",
      },
      { sub: 'cap', args: '<lane> <n>', help: "at most n attempts per task on this lane (default: the lane's own)" },
    ],
  },
  {
    name: 'default-lane',
    run: lazy(
      () => require('./commands/taskActions') as typeof import('./commands/taskActions'),
      () => import('./commands/taskActions'),
      (m) => m.defaultLaneCommand,
    ),
    opensProject: true,
    forms: [
      {
        args: '[<lane>]',
        options: { why },
        help: "show or set the project's default lane (a recorded routing change)",
      },
    ],
  },
  {
    name: 'task',
    run: lazy(
      () => require('./commands/taskCommand') as typeof import('./commands/taskCommand'),
      () => import('./commands/taskCommand'),
      (m) => m.taskCommand,
    ),
    opensProject: true,
    forms: [
      {
        sub: 'add',
        help: 'add a task',
        options: {
          title: text('T', 'one line of plain text', { required: true }),
          spec: text('S', 'the instruction for the lane'),
          'spec-file': text('F', 'read the instruction from a UTF-8 file'),
          file: text('PATH', 'a target file, relative to the repository root', { multiple: true }),
          lane: text('L', "the lane (default: the project's default lane)"),
          accept: text('CMD', 'a shell command that must exit 0 in the worktree for the task to be DONE'),
          'depends-on': text('TASK', 'a task that must be DONE first', { multiple: true }),
          priority: int('0-100', 'higher runs first (default 50)', 0, 100),
          'urgent-owner': text('O', 'urgent: who asks (with --urgent-reason and --urgent-until)'),
          'urgent-reason': text('R', 'urgent: why'),
          'urgent-until': text('ISO', 'urgent until this time (ISO 8601, in the future)'),
          draft: flag('start as DRAFT: not scheduled until `switchyard approve`'),
          json,
        },
      },
      {
        sub: 'add',
        options: {
          from: text('tasks.json', 'add tasks from a file (one spec, a list, or {"tasks": […]})', { required: true }),
          json,
        },
        help: 'add tasks from a file',
      },
      { sub: 'lane', args: '<task> <lane>', help: 'route one task to a lane' },
    ],
  },
  {
    name: 'approve',
    run: lazy(
      () => require('./commands/approveCommand') as typeof import('./commands/approveCommand'),
      () => import('./commands/approveCommand'),
      (m) => m.approveCommand,
    ),
    opensProject: true,
    forms: [{ args: '<task>…', help: 'approve DRAFT tasks (added with --draft) so they can be scheduled' }],
  },
  {
    name: 'run',
    run: lazy(
      () => require('./commands/runCommand') as typeof import('./commands/runCommand'),
      () => import('./commands/runCommand'),
      (m) => m.runCommand,
    ),
    opensProject: true,
    forms: [
      {
        options: { task: text('ID', 'run only this task', { multiple: true }), concurrency },
        help: 'resume interrupted runs, then drain the queue (exit 1 if a task ends FAILED)',
      },
    ],
  },
  {
    name: 'resume',
    run: lazy(
      () => require('./commands/resumeCommand') as typeof import('./commands/resumeCommand'),
      () => import('./commands/resumeCommand'),
      (m) => m.resumeCommand,
    ),
    opensProject: true,
    forms: [{ help: 'resume interrupted runs whose owner is gone; start nothing new' }],
  },
  {
    name: 'worker',
    run: lazy(
      () => require('./commands/workerCommand') as typeof import('./commands/workerCommand'),
      () => import('./commands/workerCommand'),
      (m) => m.workerCommand,
    ),
    opensProject: true,
    forms: [
      {
        options: {
          concurrency,
          name: text('NAME', 'how this worker appears as the owner of its runs (default: the host name)'),
          grace: {
            help: 'on SIGTERM, let running runs finish for up to S seconds (default 30)',
            placeholder: 'S',
            value: { kind: 'number', min: 0, unit: 'seconds' },
          },
          'poll-ms': int('MS', 'look for work at least this often (default 2000)', 50),
          once: flag('drain once and stop'),
        },
        help: 'a headless worker on the shared backend: drain, wait for changes, repeat; SIGTERM: finish running runs for up to S seconds, then hand them back',
      },
    ],
  },
  {
    name: 'backend',
    run: lazy(
      () => require('./commands/backendCommand') as typeof import('./commands/backendCommand'),
      () => import('./commands/backendCommand'),
      (m) => m.backendCommand,
    ),
    opensProject: true,
    forms: [
      { help: 'which backend this project uses, and its queue counts' },
      {
        sub: 'migrate',
        help: "copy this project's files backend (state and journals) into PostgreSQL, one way; the files backend is then closed for writing",
      },
    ],
  },
  {
    name: 'journal',
    run: lazy(
      () => require('./commands/journalCommand') as typeof import('./commands/journalCommand'),
      () => import('./commands/journalCommand'),
      (m) => m.journalCommand,
    ),
    opensProject: true,
    forms: [{ args: '<run>', options: { json }, help: "the run's durable journal: every call's intent and outcome" }],
  },
  {
    name: 'canary',
    run: lazy(
      () => require('./commands/canaryCommand') as typeof import('./commands/canaryCommand'),
      () => import('./commands/canaryCommand'),
      (m) => m.canaryCommand,
    ),
    opensProject: true,
    forms: [
      {
        sub: 'start',
        options: { lane: text('L', 'the canary lane', { required: true }), ...thresholds, why },
        help: 'flip the default lane to L as a canary, thresholds fixed now',
      },
      { sub: 'rollback', options: { why }, help: 'restore the previous default lane' },
      { sub: 'end', options: { why }, help: 'keep the canary lane as the default and stop judging' },
      {
        sub: 'thresholds',
        options: { ...thresholds, why: { ...why, required: true } },
        help: 'change thresholds (a recorded change)',
      },
      { sub: 'report', options: { json }, help: 'the canary vs its baseline, with the verdict' },
      { sub: 'history', options: { json }, help: 'every routing change' },
    ],
  },
  {
    name: 'config',
    run: lazy(
      () => require('./commands/configCommand') as typeof import('./commands/configCommand'),
      () => import('./commands/configCommand'),
      (m) => m.configCommand,
    ),
    opensProject: true,
    forms: [
      {
        sub: 'get',
        args: '[<key>]',
        options: { json, explain: flag('say where each value comes from: default, committed file, local override') },
        help: 'the effective project settings (default < committed .switchyard/config.json < local override)',
      },
      {
        sub: 'set',
        args: '<key> <value>',
        options: { local },
        help: 'set a dotted key (review.enabled, wip.VERIFYING…): JSON when it parses and the key is not text',
      },
      {
        sub: 'unset',
        args: '<key>',
        options: { local },
        help: 'back to the next layer',
      },
    ],
  },
  {
    name: 'trust',
    run: lazy(
      () => require('./commands/trustCommand') as typeof import('./commands/trustCommand'),
      () => import('./commands/trustCommand'),
      (m) => m.trustCommand,
    ),
    forms: [
      {
        options: { revoke: flag('stop trusting it') },
        help: 'trust this repository: the settings it carries that run commands, route credentials, read outside the worktree or weaken caps apply, and the tasks of a state file git tracks run',
      },
    ],
  },
  {
    name: 'status',
    run: lazy(
      () => require('./commands/statusCommand') as typeof import('./commands/statusCommand'),
      () => import('./commands/statusCommand'),
      (m) => m.statusCommand,
    ),
    opensProject: true,
    forms: [
      {
        options: {
          json,
          all: flag('every finished task too, not only the newest'),
          finished: int('N', 'show the N newest finished tasks (default 10)', 0),
        },
        help: 'active tasks and the newest finished, runs, failure reasons, stage WIP, backpressure and breakers',
      },
    ],
  },
  {
    name: 'report',
    run: lazy(
      () => require('./commands/reportCommand') as typeof import('./commands/reportCommand'),
      () => import('./commands/reportCommand'),
      (m) => m.reportCommand,
    ),
    opensProject: true,
    forms: [
      {
        options: {
          trace: flag('every decision, with its time'),
          json,
          task: text('ID', 'only this task', { multiple: true }),
          all: flag('every finished task too, not only the newest'),
          finished: int('N', 'cover the N newest finished tasks (default 20)', 0),
        },
        help: 'why each task started, waited, was retried or blocked',
      },
    ],
  },
  {
    name: 'experiment',
    run: lazy(
      () => require('./commands/experimentCommand') as typeof import('./commands/experimentCommand'),
      () => import('./commands/experimentCommand'),
      (m) => m.experimentCommand,
    ),
    forms: [
      {
        args: '<dag.json>',
        options: {
          concurrency: {
            help: 'the concurrencies to compare (default 1,2,4)',
            placeholder: '1,2,4',
            value: { kind: 'int-list', min: 1, max: 64 },
          },
          json,
        },
        help: 'run the same DAG at each concurrency in a fresh repository; print a table',
      },
    ],
  },
  {
    name: 'diff',
    run: lazy(
      () => require('./commands/taskActions') as typeof import('./commands/taskActions'),
      () => import('./commands/taskActions'),
      (m) => m.diffCommand,
    ),
    opensProject: true,
    forms: [{ args: '<run>', help: "the run's diff against the task's base commit" }],
  },
  {
    name: 'log',
    run: lazy(
      () => require('./commands/taskActions') as typeof import('./commands/taskActions'),
      () => import('./commands/taskActions'),
      (m) => m.logCommand,
    ),
    opensProject: true,
    forms: [{ args: '<run>', help: "the run's recorded events and decisions" }],
  },
  {
    name: 'cancel',
    run: lazy(
      () => require('./commands/taskActions') as typeof import('./commands/taskActions'),
      () => import('./commands/taskActions'),
      (m) => m.cancelCommand,
    ),
    opensProject: true,
    forms: [{ args: '<task>', help: 'cancel a task (a late result is kept as STALE_RESULT)' }],
  },
  {
    name: 'retry',
    run: lazy(
      () => require('./commands/taskActions') as typeof import('./commands/taskActions'),
      () => import('./commands/taskActions'),
      (m) => m.retryCommand,
    ),
    opensProject: true,
    forms: [{ args: '<task>', help: 'put a FAILED or CANCELED task back in the queue' }],
  },
  {
    name: 'close-pr',
    run: lazy(
      () => require('./commands/taskActions') as typeof import('./commands/taskActions'),
      () => import('./commands/taskActions'),
      (m) => m.closePullRequestCommand,
    ),
    opensProject: true,
    forms: [
      {
        args: '<task>',
        help: "close the task's open pull request on GitHub without merging it (a FAILED task's; its branch stays, a retry opens a new one)",
      },
    ],
  },
  {
    name: 'merge',
    run: lazy(
      () => require('./commands/mergeCommand') as typeof import('./commands/mergeCommand'),
      () => import('./commands/mergeCommand'),
      (m) => m.mergeCommand,
    ),
    opensProject: true,
    forms: [
      {
        args: '<task>',
        help: "take a DONE task's change into the checked-out branch as one commit (refuses on uncommitted changes or a detached HEAD; a conflict changes nothing)",
      },
    ],
  },
  {
    name: 'checkout',
    run: lazy(
      () => require('./commands/mergeCommand') as typeof import('./commands/mergeCommand'),
      () => import('./commands/mergeCommand'),
      (m) => m.checkoutCommand,
    ),
    opensProject: true,
    forms: [{ args: '<task>', help: "check out the branch of a task's last run (refuses on uncommitted changes)" }],
  },
  {
    name: 'prune',
    run: lazy(
      () => require('./commands/pruneCommand') as typeof import('./commands/pruneCommand'),
      () => import('./commands/pruneCommand'),
      (m) => m.pruneCommand,
    ),
    opensProject: true,
    forms: [
      {
        help: 'delete now the branches of DONE tasks whose change was integrated or merged (a drain does it after worktree.keepBranchesDays), their pull-request branches on the remote too',
      },
    ],
  },
  {
    name: 'worktrees',
    run: lazy(
      () => require('./commands/taskActions') as typeof import('./commands/taskActions'),
      () => import('./commands/taskActions'),
      (m) => m.worktreesCommand,
    ),
    opensProject: true,
    forms: [{ options: { clean: flag('remove those not running') }, help: "list Switchyard's worktrees" }],
  },
  {
    name: 'salvage',
    run: lazy(
      () => require('./commands/salvageCommand') as typeof import('./commands/salvageCommand'),
      () => import('./commands/salvageCommand'),
      (m) => m.salvageCommand,
    ),
    opensProject: true,
    forms: [
      {
        sub: 'list',
        isDefault: true,
        options: { json },
        help: 'runs whose partial work was salvaged (failed or interrupted runs)',
      },
      {
        sub: 'promote',
        args: '<run>',
        options: {
          to: text('BRANCH', 'the branch (default salvage/<run>)'),
          onto: text('REV', 'as one commit on a new branch off REV'),
        },
        help: "put a run's salvaged work on a branch of yours; your working tree is never touched",
      },
    ],
  },
  {
    name: 'guard',
    run: lazy(
      () => require('./commands/guardCommand') as typeof import('./commands/guardCommand'),
      () => import('./commands/guardCommand'),
      (m) => m.guardCommand,
    ),
    forms: [
      {
        sub: 'install',
        options: { 'hook-command': text('CMD', 'the command the hook runs (default: this CLI)') },
        help: 'install the pre-push guard hook (chains to an existing hook)',
      },
      {
        sub: 'pre-push',
        args: '<remote> <url>',
        help: "run the pre-push guard on git's pre-push stdin (what the hook calls)",
      },
      {
        sub: 'scan',
        options: { full: flag('the whole committed tree') },
        help: 'check the branch against its upstream as a push would, or the whole tree',
      },
    ],
  },
  {
    name: 'guards',
    run: lazy(
      () => require('./commands/guardsCommand') as typeof import('./commands/guardsCommand'),
      () => import('./commands/guardsCommand'),
      (m) => m.guardsCommand,
    ),
    forms: [
      {
        options: { json, limit: int('N', 'the last N verdicts (default 50 as text)', 1) },
        help: 'recorded guard verdicts (pass, block, warn, error)',
      },
    ],
  },
  {
    name: 'classify-error',
    run: lazy(
      () => require('./commands/classifyErrorCommand') as typeof import('./commands/classifyErrorCommand'),
      () => import('./commands/classifyErrorCommand'),
      (m) => m.classifyErrorCommand,
    ),
    forms: [
      { args: '<message|->', options: { json }, help: 'transient, ci-pending or permanent, and the rule that decided' },
    ],
  },
];

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
