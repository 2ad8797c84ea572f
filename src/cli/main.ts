import { parseArgs } from 'node:util';
import { errorMessage, isSwitchyardError } from '../core/errors';
import { type CliContext, UsageError } from './cliContext';
import { demoCommand } from './commands/demoCommand';
import { lanesCommand } from './commands/lanesCommand';
import { runCommand } from './commands/runCommand';
import { statusCommand } from './commands/statusCommand';
import { cancelCommand, defaultLaneCommand, diffCommand, logCommand, retryCommand, worktreesCommand } from './commands/taskActions';
import { taskCommand } from './commands/taskCommand';
import { resumeCommand } from './commands/resumeCommand';
import { journalCommand } from './commands/journalCommand';
import { canaryCommand } from './commands/canaryCommand';
import { trustCommand } from './commands/trustCommand';
import { guardCommand } from './commands/guardCommand';
import { guardsCommand } from './commands/guardsCommand';
import { classifyErrorCommand } from './commands/classifyErrorCommand';
import { salvageCommand } from './commands/salvageCommand';
import { reportCommand } from './commands/reportCommand';
import { experimentCommand } from './commands/experimentCommand';
import { approveCommand } from './commands/approveCommand';
import { workerCommand } from './commands/workerCommand';
import { backendCommand } from './commands/backendCommand';
import { terminalJson, terminalText } from './terminalText';

const USAGE = `switchyard — run coding agents (lanes) on tasks in fresh git worktrees

Usage: switchyard <command> [options]   (all commands take --repo <dir>, default: the current folder)
Backend: files under .switchyard/ (default), or --backend postgres / SWITCHYARD_BACKEND=postgres with the
connection string in SWITCHYARD_DATABASE_URL and the shared project name in --project-name / SWITCHYARD_PROJECT

  demo [--keep]                          run two tasks on the command lane in a throwaway repository
  lanes [--json]                         list registered lanes and their settings
  lanes set <lane> key=value…            store lane settings for this project, checked against the lane's
                                         documented settings (text as typed; numbers; JSON lists/objects)
  lanes cap <lane> <n>                   at most n attempts per task on this lane (default: the lane's own)
  default-lane [<lane>]                  show or set the project's default lane
  task add --title T [--spec S | --spec-file F] [--file PATH]… [--lane L] [--accept CMD]
           [--depends-on TASK]… [--priority 0-100] [--urgent-owner O --urgent-reason R --urgent-until ISO] [--draft]
  task add --from tasks.json             add tasks from a file (one spec, a list, or {"tasks": […]})
  task lane <task> <lane>                route one task to a lane
  approve <task>…                        approve DRAFT tasks (added with --draft) so they can be scheduled
  run [--task ID]… [--concurrency N]     resume interrupted runs, then drain the queue (exit 1 if a task ends FAILED)
  resume                                 resume interrupted runs whose owner is gone; start nothing new
  worker [--concurrency N] [--name NAME] [--grace S] [--poll-ms MS] [--once]
                                         a headless worker on the shared backend: drain, wait for changes, repeat;
                                         SIGTERM: finish running runs for up to S seconds (30), then hand them back
  backend                                which backend this project uses, and its queue counts
  backend migrate                        copy this project's files backend (state and journals) into PostgreSQL,
                                         one way; the files backend is then closed for writing
  journal <run> [--json]                 the run's durable journal: every call's intent and outcome
  canary start --lane L [--hold-below 0.7] [--expand-at-cost 0.3] [--window 7d] [--min-samples 10] [--why …]
                                         flip the default lane to L as a canary, thresholds fixed now
  canary rollback | end [--why …]        restore the previous default lane, or keep L and stop judging
  canary thresholds … --why …            change thresholds (a recorded change)
  canary report [--json] | history       the canary vs its baseline with the verdict; every routing change
  trust [--revoke]                       allow this repository's settings to load lane modules (laneModules)
  status [--json]                        tasks, runs, failure reasons, stage WIP, backpressure and breakers
  report [--trace] [--json] [--task ID]… why each task started, waited, was retried or blocked (--trace: every decision)
  experiment [--concurrency 1,2,4] <dag.json> [--json]
                                         run the same DAG at each concurrency in a fresh repository; print a table
  diff <run>                             the run's diff against the task's base commit
  log <run>                              the run's recorded events and decisions
  cancel <task> | retry <task>           cancel a task, or put a FAILED/CANCELED task back in the queue
  worktrees [--clean]                    list Switchyard's worktrees, or remove those not running
  salvage list [--json]                  runs whose partial work was salvaged (failed or interrupted runs)
  salvage promote <run> [--to BRANCH] [--onto REV]
                                         put a run's salvaged work on a branch of yours (default salvage/<run>;
                                         --onto: as one commit on REV); your working tree is never touched
  guard install [--hook-command CMD]     install the pre-push guard hook (chains to an existing hook)
  guard pre-push <remote> <url>          run the pre-push guard on git's pre-push stdin (what the hook calls)
  guard scan [--full]                    check the branch against its upstream as a push would, or the whole tree
  guards [--json] [--limit N]            recorded guard verdicts (pass, block, warn, error)
  classify-error [--json] <message|->    transient, ci-pending or permanent, and the rule that decided`;

const COMMANDS: Record<string, (ctx: CliContext) => Promise<number>> = {
  demo: demoCommand,
  lanes: lanesCommand,
  'default-lane': defaultLaneCommand,
  task: taskCommand,
  run: runCommand,
  resume: resumeCommand,
  journal: journalCommand,
  canary: canaryCommand,
  trust: trustCommand,
  status: statusCommand,
  report: reportCommand,
  experiment: experimentCommand,
  approve: approveCommand,
  worker: workerCommand,
  backend: backendCommand,
  diff: diffCommand,
  log: logCommand,
  cancel: cancelCommand,
  retry: retryCommand,
  worktrees: worktreesCommand,
  salvage: salvageCommand,
  guard: guardCommand,
  guards: guardsCommand,
  'classify-error': classifyErrorCommand,
};

export async function main(argv: string[], io = { out: (t: string) => console.log(t), err: (t: string) => console.error(t) }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        repo: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
        title: { type: 'string' }, spec: { type: 'string' }, 'spec-file': { type: 'string' }, file: { type: 'string', multiple: true },
        lane: { type: 'string' }, accept: { type: 'string' }, 'depends-on': { type: 'string', multiple: true }, priority: { type: 'string' },
        from: { type: 'string' }, task: { type: 'string', multiple: true }, concurrency: { type: 'string' }, clean: { type: 'boolean' }, keep: { type: 'boolean' }, why: { type: 'string' }, 'hold-below': { type: 'string' }, 'expand-at-cost': { type: 'string' }, window: { type: 'string' }, 'min-samples': { type: 'string' }, project: { type: 'string' }, revoke: { type: 'boolean' },
        full: { type: 'boolean' }, 'hook-command': { type: 'string' }, limit: { type: 'string' },
        to: { type: 'string' }, onto: { type: 'string' },
        backend: { type: 'string' }, 'project-name': { type: 'string' }, name: { type: 'string' }, grace: { type: 'string' }, once: { type: 'boolean' }, 'poll-ms': { type: 'string' },
        trace: { type: 'boolean' }, draft: { type: 'boolean' }, 'urgent-owner': { type: 'string' }, 'urgent-reason': { type: 'string' }, 'urgent-until': { type: 'string' },
      },
    });
  } catch (error) {
    io.err(`switchyard: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [name, ...positionals] = parsed.positionals;
  if (!name || parsed.values.help) {
    io.out(USAGE);
    return name || parsed.values.help ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`switchyard: unknown command "${name}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
    return 2;
  }
  const closers: (() => Promise<void>)[] = [];
  // Task titles, failure reasons, lane output and remote errors are untrusted: nothing reaches the terminal as control bytes.
  const out = (text: string): void => io.out(parsed.values.json ? terminalJson(text) : terminalText(text));
  const err = (text: string): void => io.err(terminalText(text));
  try {
    return await command({ positionals, flags: parsed.values, cwd: process.cwd(), env: process.env, onExit: (fn) => closers.push(fn), out, err });
  } catch (error) {
    if (error instanceof UsageError) {
      err(`switchyard ${name}: ${error.message}${error.showUsage ? `\n\n${USAGE}` : ''}`);
      return 2;
    }
    // A stack trace only when asked for: what users see is the message.
    const debug = Boolean(process.env.SWITCHYARD_DEBUG);
    err(`switchyard ${name}: ${isSwitchyardError(error) || !(error instanceof Error) ? errorMessage(error) : debug ? error.stack : `${error.message} (set SWITCHYARD_DEBUG=1 for the stack trace)`}`);
    return 1;
  } finally {
    for (const close of closers) await close().catch(() => undefined);
  }
}
