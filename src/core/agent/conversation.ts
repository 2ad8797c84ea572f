import type { ModelMessage } from 'ai';
import type { LaneRunInput } from '../lanes/lanePlugin';
import type { ModelTurn } from './modelTurn';

/** The system prompt of every API lane run: where the agent works, with what, and how it ends. */
export function systemPrompt(extra?: string): string {
  const lines = [
    'You are a coding agent working on one task in a git worktree of a repository.',
    'You act only through the tools. Every path is relative to the worktree root; nothing outside it can be reached.',
    'Work in small steps: look around (list_dir, search, read_file), change files (edit_file for part of a file, write_file for a new or rewritten file), and check your work with run_command (tests, builds, linters).',
    'A tool error is information: read it and correct the call. Do not commit, push or change git settings: Switchyard commits your changes itself.',
    'When the task is done and checked, call finish with a short summary. If it cannot be done, call finish and say why.',
  ];
  if (extra?.trim()) lines.push('', extra.trim());
  return lines.join('\n');
}

/** The system prompt of a review run: read, check, do not change, answer with a verdict. */
export function reviewSystemPrompt(extra?: string): string {
  const lines = [
    'You are reviewing a change another agent made for the task below. The worktree is at the commit of that change; the task message holds the task, the diff and the evidence of the checks that ran.',
    'You act only through the tools. Read the changed code and what it touches (read_file, search, list_dir); run checks with run_command when they help. Do not change any file.',
    'Then call verdict: "approve" when the change does the task correctly and safely, or "changes-requested" with concrete reasons (file and line, what is wrong, what to do instead).',
  ];
  if (extra?.trim()) lines.push('', extra.trim());
  return lines.join('\n');
}

/**
 * The first user message: the task, its target files, its acceptance command, the previous attempt's feedback, and what
 * an earlier attempt left.
 */
export function taskMessage(input: Pick<LaneRunInput, 'task' | 'attempt' | 'resume' | 'feedback'>): string {
  const { task } = input;
  const parts = [`Task: ${task.title}`];
  if (task.spec.trim()) parts.push('', task.spec.trim());
  if (task.files.length) parts.push('', `Target files: ${task.files.join(', ')}`);
  if (task.acceptance)
    parts.push(
      '',
      `The task is accepted when this command exits 0 in the worktree: \`${task.acceptance}\`. Run it before you finish.`,
    );
  if (input.attempt.attempt > 1 && input.attempt.retryReason)
    parts.push(
      '',
      `This is attempt ${input.attempt.attempt}; the previous attempt failed with: ${input.attempt.retryReason}`,
    );
  if (input.feedback?.trim()) parts.push('', 'Feedback on the previous attempt (address it):', input.feedback.trim());
  if (input.resume?.salvageBranch)
    parts.push('', `The worktree already holds the partial work of run ${input.resume.runId}; continue from it.`);
  return parts.join('\n');
}

/**
 * The model's turn as an assistant message for the next request. A call whose arguments were not valid JSON is sent
 * back with `{}`.
 */
export function assistantMessage(turn: ModelTurn): ModelMessage {
  return {
    role: 'assistant',
    content: turn.content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : {
            type: 'tool-call' as const,
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.inputError || !isObject(part.input) ? {} : part.input,
          },
    ),
  };
}

export interface ToolResultText {
  toolCallId: string;
  toolName: string;
  text: string;
  isError: boolean;
}

export function toolResultsMessage(results: readonly ToolResultText[]): ModelMessage {
  return {
    role: 'tool',
    content: results.map((r) => ({
      type: 'tool-result' as const,
      toolCallId: r.toolCallId,
      toolName: r.toolName,
      output: r.isError ? { type: 'error-text' as const, value: r.text } : { type: 'text' as const, value: r.text },
    })),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
