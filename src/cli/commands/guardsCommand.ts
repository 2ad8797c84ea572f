import { formatEvidence, guardEvents } from '../../core/project/repositoryGuards';
import { type CliContext, flagNumber, repoFlag } from '../cliContext';
import { table } from '../format';

/** `switchyard guards [--json] [--limit N]`: the recorded guard verdicts, newest last. */
export async function guardsCommand(ctx: CliContext): Promise<number> {
  const limit = flagNumber(ctx, 'limit');
  const events = await guardEvents(repoFlag(ctx), { limit: limit ?? (ctx.flags.json ? undefined : 50) });
  if (ctx.flags.json) {
    ctx.out(JSON.stringify(events, null, 2));
    return 0;
  }
  if (!events.length) {
    ctx.out('No guard verdicts recorded yet.');
    return 0;
  }
  ctx.out(
    table(
      ['TIME', 'GUARD', 'VERDICT', 'RULE', 'MS', 'EVIDENCE'],
      events.map((e) => [
        e.ts.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''),
        e.guard,
        e.verdict,
        e.rule,
        String(Math.round(e.durationMs)),
        e.verdict === 'error'
          ? e.error
          : [
              e.evidence[0] ? formatEvidence(e.evidence[0]) : '',
              e.evidence.length > 1 ? `(+${e.evidence.length - 1} more)` : '',
            ]
              .join(' ')
              .trim(),
      ]),
    ),
  );
  return 0;
}
