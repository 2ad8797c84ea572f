import * as vscode from 'vscode';
import type { Project } from '../../core/project/project';
import type { LaneRegistry } from '../../core/project/projectOptions';
import { applyFixAction, fixLane, laneFixActions, problemsText, type Recheck } from '../commands/laneProblems';
import { PromptCanceled, required } from './promptCanceled';
import { quickPickText } from './quickPickText';
import { explainRestricted, MANAGE_TRUST, type ShownLaneStatus } from '../config/restrictedLanes';

type LaneStatus = ShownLaneStatus;

interface LanePick extends vscode.QuickPickItem {
  status?: LaneStatus;
}

/** What pickLane needs: the registry, and the lanes' readiness (the open project's). */
export interface LaneSource {
  readonly registry: LaneRegistry;
  statuses(): Promise<LaneStatus[]>;
  /** The statuses checked again (after a fix done outside the editor, e.g. a sign-in in a terminal). */
  readonly recheck?: Recheck;
}

export const CONFIGURE = 'Configure…';
const USE_ANYWAY = 'Use it anyway';

/**
 * A QuickPick of the registered lanes: the ready ones first, then the lanes that are not ready, each with all its
 * problems and a Configure… button (its one fix at once, or a notification listing the problems with one button per
 * fix: the right setting, Set API Key, Sign In). Picking a lane that is not ready asks first: one row per fix (which
 * ends the pick) or use it anyway.
 */
export async function pickLane(source: LaneSource, placeHolder: string, current?: string): Promise<string> {
  if (source.registry.list().length === 0) throw new Error('no lanes are registered');
  const configure: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('gear'), tooltip: CONFIGURE };
  const manageTrust: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('shield'), tooltip: MANAGE_TRUST };
  const item = (status: LaneStatus): LanePick => {
    const { manifest, readiness } = status;
    const currentNote = manifest.id === current ? ' (current)' : '';
    return readiness.ready
      ? {
          label: manifest.displayName,
          description: `${manifest.id}${currentNote}`,
          detail: manifest.description,
          status,
        }
      : {
          label: manifest.displayName,
          description: `${manifest.id} · ${status.restricted ? 'Restricted Mode' : 'not ready'}${currentNote}`,
          detail: `$(${status.restricted ? 'shield' : 'warning'}) ${quickPickText(problemsText(status))}`,
          buttons: [status.restricted ? manageTrust : configure],
          status,
        };
  };
  // Shown at once, busy while the lanes are checked; an Enter before the list is there picks nothing.
  const pick = vscode.window.createQuickPick<LanePick>();
  pick.placeholder = placeHolder;
  pick.matchOnDescription = true;
  pick.ignoreFocusOut = true;
  pick.busy = true;
  const picked = await new Promise<LanePick | 'configured' | undefined>((resolve) => {
    let done = false;
    const finish = (value: LanePick | 'configured' | undefined): void => {
      if (done) return;
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidAccept(() => {
      if (!pick.busy && pick.selectedItems[0]) finish(pick.selectedItems[0]);
    });
    pick.onDidTriggerItemButton((e) => {
      const status = e.item.status;
      finish('configured');
      if (status && !status.readiness.ready) void fixLane(status, source.recheck);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    const unchecked = (): LaneStatus[] =>
      source.registry.list().map(({ manifest }) => ({ manifest, readiness: { ready: true as const } }));
    void source
      .statuses()
      .then(explainRestricted)
      .catch(unchecked)
      .then((statuses) => {
        const ready = statuses.filter((s) => s.readiness.ready);
        const unready = statuses.filter((s) => !s.readiness.ready);
        pick.items = [
          ...ready.map(item),
          ...(unready.length ? [{ label: 'not ready', kind: vscode.QuickPickItemKind.Separator } as LanePick] : []),
          ...unready.map(item),
        ];
        pick.busy = false;
      });
  });
  if (picked === 'configured') throw new PromptCanceled();
  const status = required(picked).status;
  if (!status) throw new PromptCanceled();
  if (status.readiness.ready) return status.manifest.id;
  const actions = laneFixActions(status);
  const anyway = `${USE_ANYWAY}: ${status.manifest.displayName}`;
  const choice = required(
    await vscode.window.showQuickPick<vscode.QuickPickItem & { action?: (typeof actions)[number] }>(
      [
        ...actions.map((action) => ({
          label: quickPickText(action.label),
          detail: quickPickText(action.reason),
          action,
        })),
        { label: anyway },
      ],
      {
        placeHolder: `${status.manifest.displayName} is not ready: ${problemsText(status)}`,
        ignoreFocusOut: true,
      },
    ),
  );
  if (choice.action) {
    await applyFixAction(status, choice.action, source.recheck);
    throw new PromptCanceled();
  }
  return status.manifest.id;
}

/** The lanes of the host's project with their readiness; without a project, every lane as it is registered. */
export function hostLanes(host: { readonly registry: LaneRegistry; get(): Promise<Project> }): LaneSource {
  return {
    registry: host.registry,
    statuses: () =>
      host.get().then(
        (project) => project.lanes.statuses(),
        () => host.registry.list().map(({ manifest }) => ({ manifest, readiness: { ready: true as const } })),
      ),
    recheck: () => host.get().then((project) => project.lanes.statuses(true).then(explainRestricted)),
  };
}
