import { classifyErrorMessage } from '../../core/project/classifyErrorMessage';
import { type CliContext, UsageError, readStdin, repoFlag } from '../cliContext';

/** `switchyard classify-error [--json] <message…>` or `classify-error -` (message on stdin). */
export async function classifyErrorCommand(ctx: CliContext): Promise<number> {
  const words = ctx.positionals;
  if (!words.length)
    throw new UsageError(
      'missing the error message: switchyard classify-error [--json] <message> (or - to read it from stdin)',
    );
  const message = words.length === 1 && words[0] === '-' ? await readStdin(ctx) : words.join(' ');
  const c = await classifyErrorMessage(message, repoFlag(ctx));
  if (ctx.flags.json) ctx.out(JSON.stringify(c, null, 2));
  else
    ctx.out(
      `${c.class} (rule ${c.rule}): ${c.description}${c.retryAfterMs !== undefined ? `; retry after ${c.retryAfterMs} ms` : ''}`,
    );
  return 0;
}
