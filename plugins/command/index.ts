import { z } from 'zod';
import {
  failureLeadLines,
  startProcessGroup,
  type LanePlugin,
  type LaneRunInput,
  type LaneResult,
} from '../../src/api';
import { readLines } from '../shared/lineSplitter';
import { spawnFailureReason } from '../shared/spawnFailure';
import { commandLaneManifest } from './manifest';

const Settings = z.object({
  command: z
    .string({ error: 'the command lane needs a "command" setting (the command line to run)' })
    .trim()
    .min(1, 'the command lane needs a non-empty "command" setting'),
  /** What a review run executes (default: `command`, with SWITCHYARD_REVIEW=1). */
  reviewCommand: z.string().trim().min(1).optional(),
  env: z.array(z.string()).default([]),
});

const STDERR_TAIL_LINES = 5;
const REVIEW_REASON_LINES = 5;
/** How many first lines are kept to find what failed (a test runner's first failure, npm's cause). */
const HEAD_LINES = 400;

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
    return {
      status: 'failed',
      failureCode: 'lane-misconfigured',
      failureReason: `lane "command" is misconfigured: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    };
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
  const head: string[] = [];
  // Its own process group behind the supervisor: it dies with Switchyard, and what it forks is ended when it exits.
  const group = startProcessGroup({ file: command, shell: true, cwd: input.workspaceDir, env, input: input.task.spec });
  const stop = (): void => group.stop();
  if (input.signal.aborted) stop();
  else input.signal.addEventListener('abort', stop, { once: true });

  // Read through the bounded splitter (not a line reader that holds a whole line however long).
  const pump = async (stream: AsyncIterable<Buffer>, name: 'stdout' | 'stderr'): Promise<void> => {
    for await (const lines of readLines(stream)) {
      for (const text of lines) {
        input.emit({ type: 'log', stream: name, line: text });
        if (head.length < HEAD_LINES) head.push(text);
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
  const [, , result] = await Promise.all([
    pump(group.stdout, 'stdout'),
    pump(group.stderr, 'stderr'),
    group.done,
  ]).finally(() => input.signal.removeEventListener('abort', stop));
  if (result.spawnError) {
    return {
      status: 'failed',
      failureReason: spawnFailureReason(
        command,
        /\bE2BIG\b/.test(result.spawnError) ? 'E2BIG' : undefined,
        result.spawnError,
      ),
    };
  }
  const lead = result.exitCode === 0 ? [] : failureLeadLines(head.join('\n'));
  if (review) return reviewVerdict(command, result.exitCode, result.signal, [...lead, ...outputTail], stderrTail);
  if (result.exitCode === 0) return { status: 'succeeded', summary: `\`${command}\` exited 0` };
  const how = result.exitCode !== undefined ? `exit code ${result.exitCode}` : `signal ${result.signal ?? 'unknown'}`;
  const tail = stderrTail.join(' | ').trim();
  const told = lead.length ? `: ${lead.join(' | ')}` : '';
  return {
    status: 'failed',
    failureReason: `\`${command}\` failed with ${how}${told}${tail ? `; stderr: ${tail}` : ' (no stderr output)'}`,
  };
}

/**
 * A review run's verdict: exit 0 approves; another exit code requests
 * changes, with the command's last output lines as the reasons. A command
 * that could not run (126, 127) or was killed gives no verdict.
 */
function reviewVerdict(
  command: string,
  exitCode: number | undefined,
  signal: string | undefined,
  output: string[],
  stderr: string[],
): LaneResult {
  if (exitCode === 0)
    return {
      status: 'succeeded',
      summary: `review \`${command}\` approved`,
      review: { verdict: 'approve', reasons: output.slice(-2) },
    };
  if (exitCode === undefined || exitCode === 126 || exitCode === 127) {
    const why = exitCode === undefined ? `signal ${signal ?? 'unknown'}` : `exit code ${exitCode}`;
    return {
      status: 'failed',
      failureReason: `review \`${command}\` could not run (${why})${stderr.length ? `; stderr: ${stderr.join(' | ')}` : ''}`,
    };
  }
  return {
    status: 'succeeded',
    summary: `review \`${command}\` requested changes`,
    // What failed first (a failing test), then the output's last lines, each once.
    review: {
      verdict: 'changes-requested',
      reasons: output.length ? [...new Set(output)] : [`\`${command}\` exited ${exitCode}`],
    },
  };
}
