import { execa } from 'execa';
import { z } from 'zod';
import type { LanePlugin, LaneRunInput, LaneResult } from '../../src/api';
import { commandLaneManifest } from './manifest';

const Settings = z.object({
  command: z.string({ error: 'the command lane needs a "command" setting (the command line to run)' }).trim().min(1, 'the command lane needs a non-empty "command" setting'),
  env: z.array(z.string()).default([]),
});

const STDERR_TAIL_LINES = 5;
const KILL_GRACE_MS = 2_000;

/** The `command` lane: any command line as an agent, the task spec on stdin. */
export function createCommandLane(): LanePlugin {
  return { manifest: commandLaneManifest, run: runCommand };
}

async function runCommand(input: LaneRunInput): Promise<LaneResult> {
  const parsed = Settings.safeParse(input.settings);
  if (!parsed.success) {
    return { status: 'failed', failureReason: `lane "command" is misconfigured: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
  }
  const { command, env: passThrough } = parsed.data;
  const env: Record<string, string> = { ...input.env };
  for (const name of passThrough) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }

  const stderrTail: string[] = [];
  const child = execa(command, {
    cwd: input.workspaceDir,
    env,
    extendEnv: false,
    shell: true,
    input: input.task.spec,
    reject: false,
    detached: true,
    buffer: false,
    stripFinalNewline: false,
  });
  const killGroup = (): void => {
    if (child.pid === undefined) return;
    signalGroup(child.pid, 'SIGTERM');
    setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), KILL_GRACE_MS).unref();
  };
  input.signal.addEventListener('abort', killGroup, { once: true });

  const pump = async (stream: AsyncIterable<unknown>, name: 'stdout' | 'stderr'): Promise<void> => {
    for await (const line of stream) {
      const text = String(line);
      input.emit({ type: 'log', stream: name, line: text });
      if (name === 'stderr') {
        stderrTail.push(text);
        if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
      }
    }
  };
  try {
    await Promise.all([pump(child.iterable({ from: 'stdout' }), 'stdout'), pump(child.iterable({ from: 'stderr' }), 'stderr'), child]);
  } catch {
    // The exit status below says what happened.
  } finally {
    input.signal.removeEventListener('abort', killGroup);
  }
  const result = await child;
  if (result.exitCode === 0) return { status: 'succeeded', summary: `\`${command}\` exited 0` };
  const how = result.exitCode !== undefined ? `exit code ${result.exitCode}` : `signal ${result.signal ?? 'unknown'}`;
  const tail = stderrTail.join(' | ').trim();
  return { status: 'failed', failureReason: `\`${command}\` failed with ${how}${tail ? `; stderr: ${tail}` : ' (no stderr output)'}` };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
