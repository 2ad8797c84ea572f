import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../core/project/project';
import { initRepository } from '../../core/project/initRepository';
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
    await initRepository(dir, { name: 'Switchyard Demo', email: 'demo@localhost' });

    const project = await Project.open(dir, { registry: registryWithBuiltins(), parentEnv: ctx.env });
    await project.settings.update((s) => {
      s.laneSettings.command = { command: `node "${join(dir, 'agent.js')}"` };
    });
    const [first] = await project.tasks.addMany([
      {
        title: 'Extend the greeting',
        spec: 'Hello from Switchyard',
        files: ['src/greeting.txt'],
        acceptance: 'grep -q Switchyard src/greeting.txt',
      },
    ]);
    await project.tasks.addMany([
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
      ctx.out(`\n--- diff of ${run.id} (${run.branch}) ---\n${(await project.runs.diff(run.id)).trimEnd()}`);
    const target = state.settings.integration.targetBranch;
    const merged = await project.branches.log(target).catch(() => '');
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
