import { SwitchyardError } from '../../core/errors';
import type { CanaryThresholds } from '../../core/project/routingService';
import { type CliContext, UsageError, flagNumber, flagString, openProject, requirePositional } from '../cliContext';
import { formatCanaryReport, formatRoutingHistory } from '../../core/report/formatRouting';

/**
 * `switchyard canary start|rollback|end|thresholds|report|history` (the options, checked, come from the command table).
 */
export async function canaryCommand(ctx: CliContext): Promise<number> {
  const sub = requirePositional(ctx, 0, 'subcommand: canary start | rollback | end | thresholds | report | history');
  if (!['start', 'rollback', 'end', 'thresholds', 'report', 'history'].includes(sub))
    throw new UsageError(`unknown subcommand "canary ${sub}"`);
  const project = await openProject(ctx);
  const why = flagString(ctx, 'why') ?? defaultWhy(sub);
  switch (sub) {
    case 'start': {
      const lane = flagString(ctx, 'lane');
      if (!lane) throw new UsageError('canary start needs --lane <id>');
      const change = await project.routing.startCanary(lane, thresholds(ctx), why);
      ctx.out(
        `canary started (change #${change.id}): default lane ${change.previous.defaultLane} → ${change.next.defaultLane}`,
      );
      const c = change.next.canary!;
      ctx.out(
        `thresholds: hold below ${c.holdBelow} of baseline completion; expand at cost ≤ ${c.expandAtCost}; window ${c.windowMs / 3_600_000} h; at least ${c.minSamples} tasks`,
      );
      return 0;
    }
    case 'rollback': {
      const change = await project.routing.rollbackCanary(why);
      ctx.out(
        `canary rolled back (change #${change.id}): default lane ${change.previous.defaultLane} → ${change.next.defaultLane}`,
      );
      return 0;
    }
    case 'end': {
      const change = await project.routing.endCanary(why);
      ctx.out(`canary ended (change #${change.id}): ${change.next.defaultLane} stays the default lane`);
      return 0;
    }
    case 'thresholds': {
      const t = thresholds(ctx);
      if (!Object.keys(t).length)
        throw new UsageError('canary thresholds needs --hold-below, --expand-at-cost, --window or --min-samples');
      if (!flagString(ctx, 'why')) throw new UsageError('changing thresholds after the start needs --why "<reason>"');
      const change = await project.routing.changeCanaryThresholds(t, why);
      ctx.out(`thresholds changed (change #${change.id}) by ${change.who}: ${change.why}`);
      return 0;
    }
    case 'report': {
      const report = await project.routing.canaryReport();
      if (!report)
        throw new SwitchyardError(
          'invalid-input',
          'no canary is running (start one with `switchyard canary start --lane <id>`)',
        );
      ctx.out(ctx.flags.json ? JSON.stringify(report, null, 2) : formatCanaryReport(report));
      return 0;
    }
    default: {
      const { history } = (await project.state()).routing;
      ctx.out(ctx.flags.json ? JSON.stringify(history, null, 2) : formatRoutingHistory(history));
      return 0;
    }
  }
}

function defaultWhy(sub: string): string {
  return sub === 'start'
    ? 'canary started from the CLI'
    : sub === 'rollback'
      ? 'canary rolled back from the CLI'
      : `canary ${sub} from the CLI`;
}

/** The thresholds given on the command line (ratios, a duration in ms and a count, already checked). */
function thresholds(ctx: CliContext): Partial<CanaryThresholds> {
  const given = {
    holdBelow: flagNumber(ctx, 'hold-below'),
    expandAtCost: flagNumber(ctx, 'expand-at-cost'),
    windowMs: flagNumber(ctx, 'window'),
    minSamples: flagNumber(ctx, 'min-samples'),
  };
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
}
