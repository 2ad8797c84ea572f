import { isEditorOptions } from './commandArgs';
import { isPipelineTreeNode, type PipelineTreeNode } from '../views/pipelineTreeNodes';
import { isTaskTreeNode, type TaskTreeNode } from '../views/taskTreeNodes';

/** The Restricted Mode row at the top of the tree (views/restrictedModeRow: a plain `{kind}` object). */
interface RestrictedModeRow {
  readonly kind: 'restricted-mode';
}

/** A row of the Tasks tree, as VS Code hands it to a command. */
export type TreeRow = TaskTreeNode | PipelineTreeNode | RestrictedModeRow;

/**
 * How a command takes a Tasks tree row. VS Code passes the row to a context-menu command, and the focused row (or
 * null when none has focus) to every view-title command, with the selected rows as a second argument.
 * - `'row'`: the command works on a row (Run Task, Show Run Log…): the arguments reach it as they are;
 * - a function: the command maps the row to its own arguments (Run Queue: a READY task row → that task);
 * - absent: the command has nothing to do with a row (New Task, Set API Key…): it is called without arguments, as
 *   from the palette.
 */
export type RowUse = 'row' | ((row: TreeRow) => unknown[]);

export function isTreeRow(value: unknown): value is TreeRow {
  return (
    isTaskTreeNode(value) ||
    isPipelineTreeNode(value) ||
    (value as { kind?: unknown } | null | undefined)?.kind === 'restricted-mode'
  );
}

/**
 * The one place a command's arguments meet the Tasks tree: what the handler gets when VS Code calls it with a row
 * (or with the "no focused row" null of a view-title button). Any other call's arguments pass unchanged.
 */
export function argsWithRow(args: readonly unknown[], use: RowUse | undefined): unknown[] {
  if (isEditorOptionsCall(args)) return [];
  if (!fromTree(args)) return [...args];
  const [row] = args;
  if (!isTreeRow(row)) return [];
  if (use === 'row') return [...args];
  return use ? use(row) : [];
}

/** True when VS Code called with a tree row (or the null of "no row has focus"), maybe followed by the selection. */
export function fromTree(args: readonly unknown[]): boolean {
  const [first, second] = args;
  if (args.length > 2 || (first !== null && !isTreeRow(first))) return false;
  return second === undefined || (Array.isArray(second) && second.every(isTreeRow));
}

/**
 * A command call with the row of a view-title button filled in from the Tasks view's selection when VS Code could not
 * name it. VS Code hands a title button the focused row, which the extension host looks up by its handle; each refresh
 * of the tree (every change of the project state) makes it forget the handles until VS Code asks for the rows again,
 * and a click in that window hands `undefined` (the only argument) instead of the row the user selected. `selection`
 * gives the view's selection as its last selection event gave it, mapped to the current rows (empty when the view is
 * not on screen); it is asked only for such a call. Any other call is unchanged.
 */
export function withSelectedRow(args: readonly unknown[], selection: () => readonly unknown[]): unknown[] {
  if (args.length !== 1 || args[0] !== undefined) return [...args];
  const rows = selection().filter(isTreeRow);
  return rows.length ? [rows[0], rows] : [...args];
}

/**
 * True when the only argument is VS Code's editor options object (`{preserveFocus: false}`), as a view's title menu
 * can pass: no data for any command, so the command is called as from the palette.
 */
export function isEditorOptionsCall(args: readonly unknown[]): boolean {
  return args.length === 1 && isEditorOptions(args[0]);
}
