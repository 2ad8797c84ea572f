import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../../core/text/shellQuote';

/**
 * The command line the pre-push hook in each run's worktree runs when the run starts in VS Code: the hook bundle the
 * extension ships (`dist/hook.js`), run by the extension host's own binary (`process.execPath`). In desktop VS Code
 * that binary is Electron, which runs a script as Node does only with `ELECTRON_RUN_AS_NODE=1` (VS Code's git
 * extension starts its askpass helper the same way); a Node binary (code-server, a remote host) ignores the variable.
 * Both paths are quoted for sh. Undefined when the extension has no `dist/hook.js` (a checkout that was not built):
 * the run then records that the guard was not installed.
 */
export function extensionHookCommand(extensionDir: string, execPath = process.execPath): string | undefined {
  const hook = join(extensionDir, 'dist', 'hook.js');
  if (!existsSync(hook)) return undefined;
  return `ELECTRON_RUN_AS_NODE=1 ${shellQuote(execPath)} ${shellQuote(hook)}`;
}
