import * as vscode from 'vscode';
import type { LaneRegistry } from '../core/project/projectOptions';
import { laneToolkit } from '../lanes/laneToolkit';
import { apiForVersion, type SwitchyardAPI, type SwitchyardExtension } from './switchyardApi';

/** The object `activate()` returns: `getAPI(1)` over this window's lane registry, with the lane toolkit. */
export function createSwitchyardApi(registry: LaneRegistry): SwitchyardExtension {
  const v1: SwitchyardAPI = Object.freeze({
    ...laneToolkit,
    registerLane(plugin) {
      const registration = registry.register(plugin);
      return new vscode.Disposable(() => registration.dispose());
    },
    lanes() {
      return registry.list().map((lane) => structuredClone(lane.manifest));
    },
  } satisfies SwitchyardAPI);
  return {
    getAPI: (version: number) => apiForVersion(version, v1),
  };
}
