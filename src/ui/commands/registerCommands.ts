import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { CommandId } from '../commandIds';
import { isPromptCanceled } from '../prompts/promptCanceled';
import { isSendOptions } from './commandArgs';
import { showMessage } from '../views/showMessage';
import { argsWithRow, fromTree, isEditorOptionsCall, type RowUse } from './treeRowArgs';

export interface CommandEntry {
  readonly id: CommandId;
  readonly handler: (...args: unknown[]) => Promise<unknown>;
  /** What the command does with a Tasks tree row it is called with (see RowUse); absent: it ignores the row. */
  readonly row?: RowUse;
}

/**
 * Registers the command table in one loop, each handler wrapped by `guardedHandler`.
 */
export function registerCommands(entries: readonly CommandEntry[]): vscode.Disposable[] {
  return entries.map((entry) => vscode.commands.registerCommand(entry.id, guardedHandler(entry)));
}

/**
 * A command handler whose every failure is shown with `showErrorMessage` (the
 * error's own text). A call with data (a test, another extension, the queue
 * panel) then rejects with the same error, so callers can assert on it; a call
 * from the palette, a title button or a context menu does not, so VS Code does
 * not report it a second time.
 */
export function guardedHandler({ handler, row }: Pick<CommandEntry, 'handler' | 'row'>): CommandEntry['handler'] {
  return async (...args: unknown[]) => {
    try {
      return await handler(...argsWithRow(args, row));
    } catch (error) {
      if (isPromptCanceled(error)) return undefined;
      void showMessage('error', errorMessage(error));
      if (invokedFromUi(args)) return undefined;
      throw error;
    }
  };
}

/** No arguments (palette, title bar), a Tasks tree row, or a resource from a menu without options. */
export function invokedFromUi(args: readonly unknown[]): boolean {
  const [first, second] = args;
  if (args.length === 0 || (args.length === 1 && first === undefined)) return true;
  if (fromTree(args) || isEditorOptionsCall(args)) return true;
  return first instanceof vscode.Uri && !isSendOptions(second);
}
