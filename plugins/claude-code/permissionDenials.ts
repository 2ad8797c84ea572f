/** Claude Code's tools that change the worktree or run commands. */
const EDIT_OR_COMMAND = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash']);

export type DenialVerdict =
  | { kind: 'none' }
  | { kind: 'all-denied'; message: string }
  | { kind: 'some-denied'; message: string };

/**
 * What the result's `permission_denials` mean for the run. Every edit or
 * command the agent asked for was refused (and it asked for at least one):
 * the run changed nothing it meant to, so it fails as `permission-denied`
 * naming the tools. Some refused while others ran: a warning on the run.
 * `requested` holds the edit and command tool calls seen in the stream
 * (tool_use id → tool name).
 */
export function judgeDenials(
  cli: string,
  requested: ReadonlyMap<string, string>,
  denials: readonly { tool_name: string; tool_use_id?: string }[],
): DenialVerdict {
  if (!denials.length) return { kind: 'none' };
  const denied = new Set(denials.map((d) => d.tool_use_id).filter(Boolean));
  const ran = [...requested.keys()].filter((id) => !denied.has(id));
  const tools = countNames(denials.map((d) => d.tool_name));
  const askedForWork = denials.some((d) => EDIT_OR_COMMAND.has(d.tool_name));
  if (askedForWork && ran.length === 0) {
    return {
      kind: 'all-denied',
      message:
        `${cli} was denied every edit and command it asked for: ${tools}. Nothing it meant to change was ` +
        `changed; allow these tools for the lane, e.g. extraArgs ["--permission-mode","acceptEdits"] or ` +
        `["--allowedTools","Bash(npm test:*)"]`,
    };
  }
  return { kind: 'some-denied', message: `${cli} was denied ${denials.length} tool call(s): ${tools}; the others ran` };
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
