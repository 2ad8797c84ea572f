import { SwitchyardError } from '../../core/errors';
import { canaryReport } from '../../core/routing/canaryReport';
import {
  DEFAULT_CANARY_THRESHOLDS, changeCanaryThresholds, endCanary, rollbackCanary, startCanary, type CanaryThresholds,
} from '../../core/routing/routingChanges';
import { whoAmI } from '../../core/routing/whoAmI';
import { type CliContext, UsageError, flagString, openProject, requirePositional } from '../cliContext';
import { formatCanaryReport, formatRoutingHistory } from '../../core/routing/formatRouting';

/** `switchyard canary start|rollback|end|thresholds|report|history` */
export async function canaryCommand(ctx: CliContext): Promise<number> {
  const sub = requirePositional(ctx, 0, 'subcommand: canary start | rollback | end | thresholds | report | history');
  const project = await openProject(ctx);
  const author = async () => ({ who: await whoAmI(project.root), why: flagString(ctx, 'why') ?? defaultWhy(sub) });
  switch (sub) {
    case 'start': {
      const lane = flagString(ctx, 'lane');
      if (!lane) throw new UsageError('canary start needs --lane <id>');
      const change = await startCanary(project.store, project.registry, lane, { ...DEFAULT_CANARY_THRESHOLDS, ...thresholds(ctx) }, await author());
      ctx.out(`canary started (change #${change.id}): default lane ${change.previous.defaultLane} → ${change.next.defaultLane}`);
      const c = change.next.canary!;
      ctx.out(`thresholds: hold below ${c.holdBelow} of baseline completion; expand at cost ≤ ${c.expandAtCost}; window ${c.windowMs / 3_600_000} h; at least ${c.minSamples} tasks`);
      return 0;
    }
    case 'rollback': {
      const change = await rollbackCanary(project.store, await author());
      ctx.out(`canary rolled back (change #${change.id}): default lane ${change.previous.defaultLane} → ${change.next.defaultLane}`);
      return 0;
    }
    case 'end': {
      const change = await endCanary(project.store, await author());
      ctx.out(`canary ended (change #${change.id}): ${change.next.defaultLane} stays the default lane`);
      return 0;
    }
    case 'thresholds': {
      const t = thresholds(ctx);
      if (!Object.keys(t).length) throw new UsageError('canary thresholds needs --hold-below, --expand-at-cost, --window or --min-samples');
      if (!flagString(ctx, 'why')) throw new UsageError('changing thresholds after the start needs --why "<reason>"');
      const change = await changeCanaryThresholds(project.store, t, await author());
      ctx.out(`thresholds changed (change #${change.id}) by ${change.who}: ${change.why}`);
      return 0;
    }
    case 'report': {
      const state = await project.state();
      if (!state.routing.canary) throw new SwitchyardError('invalid-input', 'no canary is running (start one with `switchyard canary start --lane <id>`)');
      const report = canaryReport(state, state.routing.canary);
      ctx.out(ctx.flags.json ? JSON.stringify(report, null, 2) : formatCanaryReport(report));
      return 0;
    }
    case 'history': {
      const { history } = (await project.state()).routing;
      ctx.out(ctx.flags.json ? JSON.stringify(history, null, 2) : formatRoutingHistory(history));
      return 0;
    }
    default:
      throw new UsageError(`unknown subcommand "canary ${sub}"`);
  }
}

function defaultWhy(sub: string): string {
  return sub === 'start' ? 'canary started from the CLI' : sub === 'rollback' ? 'canary rolled back from the CLI' : `canary ${sub} from the CLI`;
}

function thresholds(ctx: CliContext): Partial<CanaryThresholds> {
  const out: Partial<CanaryThresholds> = {};
  const ratio = (name: string): number | undefined => {
    const raw = flagString(ctx, name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!(value > 0 && value <= 1)) throw new UsageError(`--${name} is a ratio between 0 and 1 (e.g. 0.7), not "${raw}"`);
    return value;
  };
  const hold = ratio('hold-below');
  const cost = ratio('expand-at-cost');
  if (hold !== undefined) out.holdBelow = hold;
  if (cost !== undefined) out.expandAtCost = cost;
  const window = flagString(ctx, 'window');
  if (window !== undefined) out.windowMs = parseDuration(window);
  const min = flagString(ctx, 'min-samples');
  if (min !== undefined) {
    const n = Number(min);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--min-samples is a whole number ≥ 1, not "${min}"`);
    out.minSamples = n;
  }
  return out;
}

/** `90m`, `12h`, `7d` → milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(m|h|d)$/.exec(text.trim());
  if (!match) throw new UsageError(`--window is a duration like 90m, 12h or 7d, not "${text}"`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  const ms = Number(match[1]) * unit;
  if (ms < 60_000) throw new UsageError('--window must be at least 1m');
  return ms;
}
