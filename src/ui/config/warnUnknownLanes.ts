import * as vscode from 'vscode';
import type { LaneRegistry } from '../../core/project/projectOptions';
import { unknownLaneIds } from '../../core/project/laneService';
import { SETTINGS } from '../commandIds';
import { showMessage } from '../views/showMessage';

/** How long after activation (and after a lane registers) the check waits, so lanes of other extensions count. */
const SETTLE_MS = 3_000;
const OPEN_SETTINGS = 'Open Settings';

/**
 * Warns when `switchyard.lanes` names a lane id no registered lane has (a typo, an extension not installed), with
 * the registered ids and **Open Settings**; once per distinct set of unknown ids, again when the setting changes.
 * A value that is not an object of objects is ignored by the project (`editorProjectSettings`): that is said too.
 */
export function warnUnknownLanes(
  registry: LaneRegistry,
  lanesReady: () => Promise<void> = () => Promise.resolve(),
): vscode.Disposable {
  let shown = '';
  let timer: NodeJS.Timeout | undefined;
  const check = async (): Promise<void> => {
    const raw = vscode.workspace.getConfiguration(SETTINGS.section).get<unknown>(SETTINGS.lanes, {}) ?? {};
    const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
    const ids = isObject(raw) ? Object.keys(raw) : [];
    const shape = isObject(raw) && Object.values(raw).every(isObject);
    // An id no lane has yet may belong to a lane extension that is not active yet: activate those first.
    if (unknownLaneIds(ids, registry, '')) await lanesReady();
    const found = unknownLaneIds(ids, registry, 'The setting switchyard.lanes');
    const message = !shape
      ? 'the setting switchyard.lanes must be an object keyed by lane id, each value an object (e.g. {"command": {"command": "./agent.sh"}}): it is ignored until it is'
      : found?.message;
    const key = shape ? (found?.unknown.join(',') ?? '') : `shape:${JSON.stringify(raw)}`;
    if (!message || key === shown) {
      shown = key;
      return;
    }
    shown = key;
    void showMessage('warning', `Switchyard: ${message}.`, OPEN_SETTINGS).then((picked) => {
      if (picked === OPEN_SETTINGS)
        void vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS.section}.${SETTINGS.lanes}`);
    });
  };
  const later = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void check(), SETTLE_MS);
  };
  later();
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SETTINGS.section}.${SETTINGS.lanes}`)) later();
    }),
    registry.onDidChange(later),
  ];
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    for (const s of subscriptions) s.dispose();
  });
}
