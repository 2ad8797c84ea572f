import { execa } from 'execa';
import { z } from 'zod';
import type { LanePlugin, LaneRunInput, LaneResult } from '../../src/api';
import { readLines } from '../shared/lineSplitter';
import { commandLaneManifest } from './manifest';

const Settings = z.object({
  command: z.string({ error: 'the command lane needs a "command" setting (the command line to run)' }).trim().min(1, 'the command lane needs a non-empty "command" setting'),
  /** What a review run executes (default: `command`, with SWITCHYARD_REVIEW=1). */
  reviewCommand: z.string().trim().min(1).optional(),
  env: z.array(z.string()).default([]),
});

const STDERR_TAIL_LINES = 5;
const KILL_GRACE_MS = 2_000;
const REVIEW_REASON_LINES = 5;

/**
 * The `command` lane: any command line as an agent, the task spec on stdin.
 * As a reviewer (`mode: 'review'`) it runs `reviewCommand` (or `command`)
 * with SWITCHYARD_REVIEW=1 and the review spec (spec, diff, gate evidence)
 * on stdin: exit 0 approves, another exit code requests changes.
 */
export function createCommandLane(): LanePlugin {
  return { manifest: commandLaneManifest, run: runCommand };
}

async function runCommand(input: LaneRunInput): Promise<LaneResult> {
  const parsed = Settings.safeParse(input.settings);
  if (!parsed.success) {
    return { status: 'failed', failureReason: `lane "command" is misconfigured: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
  }
  const review = input.mode === 'review';
  const { env: passThrough } = parsed.data;
  const command = review ? (parsed.data.reviewCommand ?? parsed.data.command) : parsed.data.command;
  const env: Record<string, string> = { ...input.env };
  if (input.feedback) env.SWITCHYARD_FEEDBACK = input.feedback;
  if (review) env.SWITCHYARD_REVIEW = '1';
  for (const name of passThrough) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }

  const stderrTail: string[] = [];
  const outputTail: string[] = [];
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

  // Read through the bounded splitter (not execa's `iterable`, which holds a whole line however long).
  const pump = async (stream: AsyncIterable<Buffer> | null | undefined, name: 'stdout' | 'stderr'): Promise<void> => {
    if (!stream) return;
    for await (const lines of readLines(stream)) {
      for (const text of lines) {
        input.emit({ type: 'log', stream: name, line: text });
        if (text.trim()) {
          outputTail.push(text.trim());
          if (outputTail.length > REVIEW_REASON_LINES) outputTail.shift();
        }
        if (name === 'stderr') {
          stderrTail.push(text);
          if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
        }
      }
    }
  };
  try {
    await Promise.all([pump(child.stdout, 'stdout'), pump(child.stderr, 'stderr'), child]);
  } catch {
    // The exit status below says what happened.
  } finally {
    input.signal.removeEventListener('abort', killGroup);
  }
  const result = await child;
  if (review) return reviewVerdict(command, result.exitCode, result.signal, outputTail, stderrTail);
  if (result.exitCode === 0) return { status: 'succeeded', summary: `\`${command}\` exited 0` };
  const how = result.exitCode !== undefined ? `exit code ${result.exitCode}` : `signal ${result.signal ?? 'unknown'}`;
  const tail = stderrTail.join(' | ').trim();
  return { status: 'failed', failureReason: `\`${command}\` failed with ${how}${tail ? `; stderr: ${tail}` : ' (no stderr output)'}` };
}

/**
 * A review run's verdict: exit 0 approves; another exit code requests
 * changes, with the command's last output lines as the reasons. A command
 * that could not run (126, 127) or was killed gives no verdict.
 */
function reviewVerdict(command: string, exitCode: number | undefined, signal: string | undefined, output: string[], stderr: string[]): LaneResult {
  if (exitCode === 0) return { status: 'succeeded', summary: `review \`${command}\` approved`, review: { verdict: 'approve', reasons: output.slice(-2) } };
  if (exitCode === undefined || exitCode === 126 || exitCode === 127) {
    const why = exitCode === undefined ? `signal ${signal ?? 'unknown'}` : `exit code ${exitCode}`;
    return { status: 'failed', failureReason: `review \`${command}\` could not run (${why})${stderr.length ? `; stderr: ${stderr.join(' | ')}` : ''}` };
  }
  return { status: 'succeeded', summary: `review \`${command}\` requested changes`, review: { verdict: 'changes-requested', reasons: output.length ? output : [`\`${command}\` exited ${exitCode}`] } };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
