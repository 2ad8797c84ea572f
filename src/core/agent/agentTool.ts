import { z } from 'zod';
import type { ReplayRule } from '../journal/journalEvent';

/** What a tool gets besides its input. */
export interface ToolContext {
  /** The run's worktree; every path is confined to it. */
  readonly workspaceDir: string;
  /** The lane's allowlisted environment, for commands. */
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** The durable call's key: the same on a re-run, so a tool can tell it already acted. */
  readonly idempotencyKey: string;
  /** Redacts the run's secrets (and cut-off pieces of them): applied to output before it is clipped or summarised. */
  readonly redact?: (text: string) => string;
}

/** A tool's result, as the journal records it (checked again when a resume reads it back) and the model reads it. */
export const ToolOutput = z
  .object({
    text: z.string(),
    isError: z.boolean().optional(),
    /**
     * One line naming what went wrong, for a failure reason ("`pytest` exit 1: FAILED
     * tests/test_user.py::test_create").
     */
    error: z.string().optional(),
  })
  .strict();
export type ToolOutput = z.infer<typeof ToolOutput>;

/**
 * A tool of the agent loop. `replay` is its rule for an interrupted call:
 * `safe` runs it again, `never` reports it uncertain to the model.
 */
export interface AgentTool<I = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<I>;
  replay(input: I): ReplayRule;
  run(input: I, ctx: ToolContext): Promise<ToolOutput>;
}

/**
 * An error the model should read and can act on (a bad path, an edit that does not match): the tool call fails with
 * this message.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** Keeps tool output within what a model turn should carry, saying what was cut. */
export function clip(text: string, max: number, keep: 'head' | 'tail' = 'head'): string {
  if (text.length <= max) return text;
  const cut = text.length - max;
  return keep === 'head'
    ? `${text.slice(0, max)}\n[… ${cut} more characters not shown]`
    : `[… ${cut} earlier characters not shown]\n${text.slice(-max)}`;
}

/** At most `max` characters on one line, for messages: `npm run test -- --grep …`. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodType>(tool: AgentTool<z.infer<S>> & { inputSchema: S }): AgentTool<unknown> {
  return tool as unknown as AgentTool<unknown>;
}
