import { errorMessage } from '../core/errors';
import { runPrePushGuard } from '../core/project/repositoryGuards';

/**
 * The pre-push hook's own entry (dist/hookMain.js, run by dist/hook.js): the guards and nothing else of the CLI (no
 * lanes, no backends), so the process git waits for starts fast. `hook.js <remote> <url>`: git's pre-push stdin in;
 * the guard's lines on stderr; exit 1 only when a guard blocks. `hook.js guard pre-push <remote> <url>` (the words the
 * CLI takes, which the installed hook script passes) works too.
 */
async function main(argv: readonly string[]): Promise<number> {
  const args = argv[0] === 'guard' && argv[1] === 'pre-push' ? argv.slice(2) : argv;
  const remote = args[0] ?? 'origin';
  try {
    const report = await runPrePushGuard({ cwd: process.cwd(), remote, stdin: await readStdin() });
    for (const line of report.lines) console.error(line);
    return report.blocked ? 1 : 0;
  } catch (error) {
    // runPrePushGuard does not throw; this is the last line of fail-safety.
    console.error(`switchyard pre-push guard: internal error (${errorMessage(error)}); push allowed`);
    return 0;
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
