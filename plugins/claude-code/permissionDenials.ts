import { isAbsolute, relative, resolve } from 'node:path';

/** Claude Code's tools that change the worktree or run commands. */
const EDIT_OR_COMMAND = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash']);

export type DenialVerdict =
  | { kind: 'none' }
  | { kind: 'all-denied'; message: string }
  | { kind: 'outside-worktree'; message: string }
  | { kind: 'some-denied'; message: string };

type Denial = { tool_name: string; tool_use_id?: string; tool_input?: unknown };

/**
 * What the result's `permission_denials` mean for the run. Every edit or
 * command the agent asked for was refused (and it asked for at least one):
 * the run changed nothing it meant to. When every refused edit named a file
 * outside `workspaceDir`, the agent was acting on another directory (a
 * session whose history names an earlier worktree, a model's wrong path):
 * `outside-worktree`, which no permission setting fixes. Otherwise the lane's
 * permissions refused it: `all-denied`, naming the tools. Some refused while
 * others ran: a warning on the run. `requested` holds the edit and command
 * tool calls seen in the stream (tool_use id → tool name).
 */
export function judgeDenials(
  cli: string,
  requested: ReadonlyMap<string, string>,
  denials: readonly Denial[],
  workspaceDir?: string,
): DenialVerdict {
  if (!denials.length) return { kind: 'none' };
  const denied = new Set(denials.map((d) => d.tool_use_id).filter(Boolean));
  const ran = [...requested.keys()].filter((id) => !denied.has(id));
  const tools = countNames(denials.map((d) => d.tool_name));
  const askedForWork = denials.some((d) => EDIT_OR_COMMAND.has(d.tool_name));
  if (askedForWork && ran.length === 0) {
    const outside = workspaceDir ? denials.map((d) => pathOutside(d, workspaceDir)) : [];
    if (outside.length && outside.every((p) => p !== undefined))
      return {
        kind: 'outside-worktree',
        message: `${cli} was refused every edit it asked for because each named a file outside the run's worktree (${[...new Set(outside)].join(', ')}): it acted on another directory, which no permission setting fixes; the next attempt starts a new session in its own worktree`,
      };
    return {
      kind: 'all-denied',
      message: `${cli} was denied every edit and command it asked for: ${tools}. Nothing it meant to change was changed; allow these tools for the lane, e.g. extraArgs ["--permission-mode","acceptEdits"] or ["--allowedTools","Bash(npm test:*)"]`,
    };
  }
  return { kind: 'some-denied', message: `${cli} was denied ${denials.length} tool call(s): ${tools}; the others ran` };
}

/** The absolute file path a denied edit named, when it is outside `dir`; undefined otherwise (or none). */
function pathOutside(denial: Denial, dir: string): string | undefined {
  const input = denial.tool_input as { file_path?: unknown; notebook_path?: unknown } | undefined;
  const file = input?.file_path ?? input?.notebook_path;
  if (typeof file !== 'string' || !isAbsolute(file)) return undefined;
  const rel = relative(resolve(dir), resolve(file));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? undefined : file;
}

/** "Write ×2, Bash" in order of first appearance. */
function countNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(', ');
}

export function isEditOrCommand(tool: string): boolean {
  return EDIT_OR_COMMAND.has(tool);
}
