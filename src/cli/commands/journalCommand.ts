import { formatTokens, type UsageFigures } from '../../core/text/usageText';
import { type CliContext, openProject, requirePositional } from '../cliContext';

/** `switchyard journal <run> [--json]`: the run's journal, one call a line. */
export async function journalCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const runId = requirePositional(ctx, 0, 'run id');
  const { events, tornTail, where: file } = await project.runs.journal(runId);
  if (ctx.flags.json) {
    ctx.out(JSON.stringify(events, null, 2));
    return 0;
  }
  if (!events.length) ctx.out(`${file}: no journal events`);
  for (const e of events) {
    const head = `#${String(e.seq).padStart(4)} ${e.ts}`;
    switch (e.type) {
      case 'run-started':
        ctx.out(`${head} run started on lane ${e.lane}, attempt ${e.attempt}, owner ${e.owner}`);
        break;
      case 'resumed':
        ctx.out(`${head} resumed by ${e.owner}${e.previousOwner ? ` (after ${e.previousOwner})` : ''}`);
        break;
      case 'warning':
        ctx.out(`${head} warning: ${e.message}`);
        break;
      case 'intent':
        ctx.out(`${head} call ${e.call} → ${e.kind} ${e.name} (${e.replay}) key ${e.key} input ${short(e.input)}`);
        break;
      case 'outcome':
        ctx.out(
          `${head} call ${e.call} ← ${e.uncertain ? 'UNCERTAIN' : e.ok ? 'ok' : 'error'} ` +
            `${e.ok ? short(e.output) : (e.error ?? '')}${e.usage ? usageNote(e.usage) : ''}`,
        );
        break;
    }
  }
  if (tornTail) ctx.out(`line ${tornTail.line}: torn (a crash mid-write); resume drops it`);
  return 0;
}

function usageNote(usage: UsageFigures & { costUsd: number }): string {
  return ` (${formatTokens(usage)}, $${usage.costUsd.toFixed(4)})`;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 100 ? `${text.slice(0, 97)}…` : text;
}
