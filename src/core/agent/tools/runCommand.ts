import { z } from 'zod';
import { awaitGroup } from '../../process/awaitGroup';
import { startProcessGroup } from '../../process/startProcessGroup';
import { clip, defineTool, oneLine, type AgentTool } from '../agentTool';

const MAX_OUTPUT = 20_000;

const Input = z
  .object({
    command: z.string().trim().min(1).describe('A shell command line, run in the worktree root'),
    timeoutMs: z.number().int().min(1_000).optional().describe('Stop the command after this many milliseconds'),
  })
  .strict();

export interface RunCommandOptions {
  /** Commands that are safe to run again after an interruption (the test command, a linter): exact command lines. */
  safeCommands: readonly string[];
  /** The default and the longest a command may run. */
  timeoutMs: number;
}

/**
 * `run_command`: a shell command in the worktree with the lane's allowlisted
 * environment. Its replay rule is `never` (an interrupted command is reported
 * uncertain, not run twice) unless the project lists it as safe.
 */
export function runCommandTool(options: RunCommandOptions): AgentTool {
  const safe = new Set(options.safeCommands.map((c) => c.trim()));
  return defineTool({
    name: 'run_command',
    description:
      'Run a shell command in the worktree root (tests, builds, linters, git status). Returns the exit code and the combined output (its end, when long).',
    inputSchema: Input,
    replay: (input) => (safe.has(input.command) ? 'safe' : 'never'),
    async run(input, ctx) {
      const timeout = Math.min(input.timeoutMs ?? options.timeoutMs, options.timeoutMs);
      const started = Date.now();
      // Its own process group behind the supervisor, so a timeout or a cancel stops everything it started
      // (`npm test` and its workers), what it forks ends when it exits, and nothing outlives Switchyard.
      const group = startProcessGroup({
        file: input.command,
        shell: true,
        cwd: ctx.workspaceDir,
        env: { ...ctx.env, SWITCHYARD_IDEMPOTENCY_KEY: ctx.idempotencyKey },
      });
      const chunks: Buffer[] = [];
      group.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      group.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
      const { exit: result, timedOut } = await awaitGroup(group, timeout, ctx.signal);
      // Redacted before it is clipped or summarised, so no cut leaves a piece of a secret behind.
      const redact = ctx.redact ?? ((text: string) => text);
      const output = redact(result.spawnError ? result.spawnError : Buffer.concat(chunks).toString('utf8'));
      const command = redact(input.command);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const how = timedOut
        ? `timed out after ${timeout} ms`
        : result.exitCode !== undefined
          ? `exit code ${result.exitCode}`
          : `killed by ${result.signal ?? 'a signal'}`;
      const text = `$ ${command}\n${how} (${seconds} s)\n${clip(output, MAX_OUTPUT, 'tail') || '(no output)'}`;
      if (result.exitCode === 0 && !timedOut) return { text };
      const short = result.exitCode !== undefined && !timedOut ? `exit ${result.exitCode}` : how;
      const line = telltaleLine(output);
      return { text, isError: true, error: `\`${oneLine(command, 80)}\` ${short}${line ? `: ${line}` : ''}` };
    },
  });
}

/**
 * The line of a failed command's output that says most: the last one that names a failure, else the last non-empty one.
 */
export function telltaleLine(output: string): string | undefined {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-40);
  const telling = [...lines]
    .reverse()
    .find(
      (l) =>
        /\b(FAIL(ED|URE)?|ERROR|Error|error|failed|AssertionError|panicked|Traceback)\b/.test(l) &&
        !/^=+\s.*\s=+$/.test(l),
    );
  const line = telling ?? lines[lines.length - 1];
  return line ? oneLine(line, 200) : undefined;
}
