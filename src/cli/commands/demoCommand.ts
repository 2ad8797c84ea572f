import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitOutput } from '../../core/git/gitExec';
import { Project } from '../../core/project';
import { registryWithBuiltins } from '../../lanes/builtinLanes';
import type { CliContext } from '../cliContext';
import { formatStatus, runLine } from '../format';

/**
 * A stand-in agent for the demo: appends the instruction (stdin) to each
 * target file, or writes NOTES.md when the task names none.
 */
const DEMO_AGENT = `
const fs = require('fs');
const spec = fs.readFileSync(0, 'utf8').trim();
const files = (process.env.SWITCHYARD_TASK_FILES || '').split('\\n').filter(Boolean);
for (const f of files.length ? files : ['NOTES.md']) {
  fs.appendFileSync(f, spec + '\\n');
  console.log('edited ' + f);
}`;

/** `switchyard demo [--keep]`: two tasks on the command lane in a throwaway repository. */
export async function demoCommand(ctx: CliContext): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-demo-'));
  try {
    ctx.out(`demo repository: ${dir}`);
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'README.md'), '# Demo project\n');
    await writeFile(join(dir, 'src', 'greeting.txt'), 'Hello\n');
    await writeFile(join(dir, 'agent.js'), DEMO_AGENT);
    for (const args of [
      ['init'],
      ['config', 'user.name', 'Switchyard Demo'],
      ['config', 'user.email', 'demo@localhost'],
      ['add', '.'],
      ['commit', '-m', 'initial commit'],
    ]) {
      await gitOutput(dir, args);
    }

    const project = await Project.open(dir, { registry: registryWithBuiltins(), parentEnv: ctx.env });
    await project.updateSettings((s) => {
      s.laneSettings.command = { command: `node "${join(dir, 'agent.js')}"` };
    });
    const [first] = await project.addTasks([
      {
        title: 'Extend the greeting',
        spec: 'Hello from Switchyard',
        files: ['src/greeting.txt'],
        acceptance: 'grep -q Switchyard src/greeting.txt',
      },
    ]);
    await project.addTasks([
      {
        title: 'Write release notes',
        spec: '- greeting extended',
        dependsOn: [first!.id],
        acceptance: 'test -s NOTES.md',
      },
    ]);

    await project.runQueue({
      onRunStarted: (run, task) => ctx.out(`▶ ${run.id} ${task.spec.title} on lane ${run.lane}`),
      onRunFinished: (run) => ctx.out(`${run.state === 'SUCCEEDED' ? '✔' : '✖'} ${runLine(run)}`),
    });
    const state = await project.state();
    ctx.out(`\n${formatStatus(state)}`);
    for (const run of state.runs)
      ctx.out(`\n--- diff of ${run.id} (${run.branch}) ---\n${(await project.diff(run.id)).trimEnd()}`);
    const target = state.settings.integration.targetBranch;
    const merged = await gitOutput(dir, ['log', '--oneline', '--first-parent', target]).catch(() => '');
    if (merged)
      ctx.out(
        `\n--- ${target}: each task merged in dependency order (your branch is untouched) ---\n${merged.trimEnd()}`,
      );
    const allDone = state.tasks.every((t) => t.state === 'DONE');
    ctx.out(
      `\n${allDone ? 'All tasks DONE.' : 'Some tasks did not finish.'} Your own repositories work the same way: cd into one and run \`switchyard task add\`, then \`switchyard run\`.`,
    );
    return allDone ? 0 : 1;
  } finally {
    if (ctx.flags.keep) ctx.out(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}
