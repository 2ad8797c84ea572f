import type { LaneFix } from '../../core/project/laneService';
import { readinessProblems } from '../../core/project/laneService';
import { plainLine } from '../../core/text/plainText';
import type { ShownLaneStatus } from '../config/restrictedLanes';
import { showMessage } from '../views/showMessage';
import { configureLane, fixLabel } from './configureLane';

/** Checks the lanes again (a key stored, a sign-in done) and answers their statuses as the UI shows them. */
export type Recheck = () => Promise<ShownLaneStatus[]>;

/** One action that fixes (part of) an unready lane: its button label, its fix, the problem it fixes. */
export interface LaneFixAction {
  readonly label: string;
  readonly fix?: LaneFix;
  readonly reason: string;
}

/**
 * The actions that fix a lane, one per label, in the order of its problems: Manage Workspace Trust alone when its
 * settings are ignored in Restricted Mode; a problem without a fix offers the lane's settings.
 */
export function laneFixActions(status: ShownLaneStatus): LaneFixAction[] {
  const problems = readinessProblems(status.readiness);
  const actions: LaneFixAction[] = [];
  for (const problem of problems) {
    const fixes = status.restricted || !problem.fixes?.length ? [undefined] : problem.fixes;
    for (const fix of fixes) {
      const label = fixLabel(fix, status.restricted);
      if (!actions.some((a) => a.label === label))
        actions.push({ label, ...(fix ? { fix } : {}), reason: problem.reason });
    }
  }
  return actions;
}

/** Every problem of an unready lane in one line: its reason, or the reasons numbered. */
export function problemsText(status: ShownLaneStatus): string {
  const reasons = readinessProblems(status.readiness).map((p) => plainLine(p.reason));
  if (reasons.length <= 1) return reasons[0] ?? '';
  return `${reasons.length} problems: ${reasons.map((r, i) => `(${i + 1}) ${r}`).join(' ')}`;
}

/**
 * Fixes an unready lane: with one way to fix it, that fix at once; with several, a notification listing every
 * problem with one button per fix.
 */
export async function fixLane(status: ShownLaneStatus, recheck?: Recheck): Promise<void> {
  const actions = laneFixActions(status);
  if (actions.length <= 1) return applyFixAction(status, actions[0], recheck);
  return showLaneProblems(status, recheck);
}

/** The warning notification of an unready lane: all its problems, one button per fix; the button picked applies it. */
export async function showLaneProblems(status: ShownLaneStatus, recheck?: Recheck): Promise<void> {
  const actions = laneFixActions(status);
  const picked = await showMessage(
    'warning',
    `Switchyard: ${status.manifest.displayName} is not ready: ${problemsText(status)}`,
    ...actions.map((a) => a.label),
  );
  const action = actions.find((a) => a.label === picked);
  if (action) await applyFixAction(status, action, recheck);
}

/**
 * Applies one action; after a step in a terminal (a sign-in), the lane is checked again and the user told: ready, or
 * what is still missing (the notification again).
 */
export async function applyFixAction(
  status: ShownLaneStatus,
  action: LaneFixAction | undefined,
  recheck?: Recheck,
): Promise<void> {
  const { id, displayName } = status.manifest;
  const again = recheck
    ? () =>
        void recheck().then(
          (statuses) => {
            const now = statuses.find((s) => s.manifest.id === id);
            if (!now) return;
            if (now.readiness.ready) void showMessage('info', `Switchyard: ${displayName} is ready.`);
            else void showLaneProblems(now, recheck);
          },
          () => undefined,
        )
    : undefined;
  await configureLane(id, action?.fix, {
    restricted: status.restricted ?? false,
    ...(again ? { recheck: again } : {}),
  });
}
