import { errorMessage } from '../errors';
import type { LaneRunInput } from '../lanes/lanePlugin';
import { describeZodError } from '../model/zodIssues';
import { credentialsInEnv } from '../secrets/credentialEnv';
import { Redactor } from '../secrets/redactor';
import { ToolError, ToolOutput, clip, type AgentTool, type ToolContext } from './agentTool';
import type { BudgetTracker } from './budget';
import type { ToolResultText } from './conversation';
import type { TurnPart } from './modelTurn';
import { FINISH, VERDICT } from './tools';

type ToolCallPart = Extract<TurnPart, { type: 'tool-call' }>;

export type ToolCallDone =
  | { kind: 'result'; result: ToolResultText }
  /** `finish` or `verdict`: the run ends with the tool's (checked) input. */
  | { kind: 'finish'; input: unknown; result: ToolResultText }
  | { kind: 'budget'; reason: string };

const EVENT_OUTPUT_CHARS = 2_000;

/**
 * Runs the model's tool calls: arguments checked against the tool's schema
 * (invalid JSON or a wrong field is a tool error the model reads), the
 * execution budget counted, each call made durable with the tool's replay
 * rule, and events emitted for calls that really ran (not read back).
 */
export class ToolCallRunner {
  private readonly byName: Map<string, AgentTool>;
  /** True while the run is reading back calls from an earlier process; nothing is reported for those. */
  replaying = true;
  /**
   * The lane's secrets and the credentials in its environment: tool output is redacted of them before anything cuts it
   * or the model reads it.
   */
  private readonly redactor = new Redactor();

  constructor(
    private readonly input: LaneRunInput,
    tools: readonly AgentTool[],
    private readonly budget: BudgetTracker,
  ) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    for (const [name, value] of Object.entries({ ...credentialsInEnv(input.env, {}, {}), ...input.secrets }))
      if (value) this.redactor.add(name, value);
  }

  async run(call: ToolCallPart): Promise<ToolCallDone> {
    const reply = (text: string, isError: boolean): ToolResultText => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      text,
      isError,
    });
    const tool = this.byName.get(call.toolName);
    if (call.inputError || !tool) {
      const why =
        call.inputError ??
        `there is no tool named "${call.toolName}"; the tools are ${[...this.byName.keys()].join(', ')}`;
      return this.refused(
        call,
        reply(
          `invalid call of ${call.toolName}: ${why}. Send the call again with valid JSON arguments that match the tool's schema.`,
          true,
        ),
      );
    }
    const parsed = tool.inputSchema.safeParse(call.input);
    if (!parsed.success) {
      return this.refused(
        call,
        reply(
          `invalid arguments for ${tool.name}: ${describeZodError(parsed.error)}. Send the call again with arguments that match the tool's schema.`,
          true,
        ),
      );
    }
    if (tool.name === FINISH || tool.name === VERDICT)
      return { kind: 'finish', input: parsed.data, result: reply('ok: the run ends here', false) };

    const over = this.budget.takeExecution();
    if (over) return { kind: 'budget', reason: over };
    if (!this.replaying) this.emitCall(call);
    const result = await this.input.call<ToolOutput>(
      { kind: 'tool', name: tool.name, input: parsed.data, replay: tool.replay(parsed.data) },
      (ctx) =>
        runTool(tool, parsed.data, {
          workspaceDir: this.input.workspaceDir,
          env: this.input.env,
          signal: this.input.signal,
          idempotencyKey: ctx.idempotencyKey,
          redact: (text) => this.redactor.redact(text),
        }),
    );
    this.input.signal.throwIfAborted();
    let output: ToolOutput;
    if (result.status === 'uncertain') {
      output = {
        text: `${result.message}. Its result is unknown: check whether it took effect (the files or state it changes) before you do it again.`,
      };
    } else {
      output = result.value;
      if (result.replayed) {
        const checked = ToolOutput.safeParse(output);
        output = checked.success
          ? checked.data
          : {
              text: `the journal's result of this ${tool.name} call cannot be read (${describeZodError(checked.error)}); check its effect yourself`,
              isError: true,
            };
        if (output.isError) this.budget.noteError(output.error ?? `${tool.name}: ${output.text}`);
        return { kind: 'result', result: reply(output.text, output.isError === true) };
      }
    }
    if (this.replaying) {
      this.replaying = false;
      this.emitCall(call);
    }
    if (output.isError) this.budget.noteError(output.error ?? `${tool.name}: ${output.text}`);
    this.input.emit({
      type: 'tool-result',
      callId: call.toolCallId,
      output: clip(output.text, EVENT_OUTPUT_CHARS),
      isError: output.isError === true,
    });
    return { kind: 'result', result: reply(output.text, output.isError === true) };
  }

  /** A call that never reaches a tool: it costs no execution, and the model reads why. */
  private refused(call: ToolCallPart, result: ToolResultText): ToolCallDone {
    this.budget.noteError(result.text);
    if (!this.replaying) {
      this.emitCall(call);
      this.input.emit({ type: 'tool-result', callId: call.toolCallId, output: result.text, isError: true });
    }
    return { kind: 'result', result };
  }

  private emitCall(call: ToolCallPart): void {
    this.input.emit({
      type: 'tool-call',
      callId: call.toolCallId,
      name: call.toolName,
      input: call.inputError ? { invalidArguments: call.input } : call.input,
    });
  }
}

/**
 * A tool's own errors (a path outside the worktree, an edit that does not match) become a result the model reads; only
 * an abort escapes.
 */
async function runTool(
  tool: AgentTool,
  input: unknown,
  ctx: ToolContext & { redact: (text: string) => string },
): Promise<ToolOutput> {
  let output: ToolOutput;
  try {
    output = await tool.run(input, ctx);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const message = error instanceof ToolError ? error.message : `${tool.name} failed: ${errorMessage(error)}`;
    output = { text: message, isError: true, error: `${tool.name}: ${message}` };
  }
  // Every tool's output, before the event clips it, the journal keeps it or the model reads it (a file the model reads
  // may hold a key).
  return {
    ...output,
    text: ctx.redact(output.text),
    ...(output.error !== undefined ? { error: ctx.redact(output.error) } : {}),
  };
}
