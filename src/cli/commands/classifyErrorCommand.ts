import { classify, loadErrorRules } from '../../core/retry/classifyError';
import { BUILTIN_ERROR_RULES } from '../../core/retry/errorRules';
import { mainWorktreeRoot } from '../../core/git/gitExec';
import { type CliContext, UsageError, readStdin, repoFlag } from '../cliContext';

/** `switchyard classify-error [--json] <message…>` or `classify-error -` (message on stdin). */
export async function classifyErrorCommand(ctx: CliContext): Promise<number> {
  const words = ctx.positionals;
  if (!words.length)
    throw new UsageError(
      'missing the error message: switchyard classify-error [--json] <message> (or - to read it from stdin)',
    );
  const message = words.length === 1 && words[0] === '-' ? await readStdin(ctx) : words.join(' ');
  const rules = await projectRules(repoFlag(ctx));
  const c = classify(message, rules);
  if (ctx.flags.json) ctx.out(JSON.stringify(c, null, 2));
  else
    ctx.out(
      `${c.class} (rule ${c.rule}): ${c.description}${c.retryAfterMs !== undefined ? `; retry after ${c.retryAfterMs} ms` : ''}`,
    );
  return 0;
}

/** The project's rules when run inside a repository (a bad rules file is an error); built-in rules elsewhere. */
async function projectRules(dir: string) {
  const root = await mainWorktreeRoot(dir).catch(() => undefined);
  return root ? loadErrorRules(root) : [...BUILTIN_ERROR_RULES];
}
