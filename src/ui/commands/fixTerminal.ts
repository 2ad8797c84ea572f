import * as vscode from 'vscode';
import type { LaneFix } from '../../core/project/laneService';
import { plainLine } from '../../core/text/plainText';

/**
 * Opens an integrated terminal, shown to the user, that runs a lane's fix command (e.g. `claude auth login`): the
 * program is the terminal's process and its arguments are passed as they are, with no shell between, so no part of
 * them is interpreted. `onClosed` runs once the terminal is closed (the command ended, or the user closed it).
 */
export function openFixTerminal(
  laneId: string,
  fix: Extract<LaneFix, { kind: 'terminal' }>,
  onClosed?: () => void,
): vscode.Terminal {
  const [program, ...args] = fix.argv;
  if (!program) throw new Error(`lane "${laneId}": its "${fix.label}" fix names no command`);
  const terminal = vscode.window.createTerminal({
    name: plainLine(`Switchyard: ${laneId} · ${fix.label}`),
    shellPath: program,
    shellArgs: args,
  });
  terminal.show();
  if (onClosed) {
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      closed.dispose();
      onClosed();
    });
  }
  return terminal;
}
