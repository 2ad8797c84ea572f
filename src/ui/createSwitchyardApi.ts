import * as vscode from 'vscode';
import type { LaneRegistry } from '../core/lanes/laneRegistry';
import { SUPPORTED_API_VERSIONS, type SwitchyardAPI, type SwitchyardExtension } from './switchyardApi';

/** The object `activate()` returns: `getAPI(1)` over this window's lane registry. */
export function createSwitchyardApi(registry: LaneRegistry): SwitchyardExtension {
  const v1: SwitchyardAPI = {
    registerLane(plugin) {
      const registration = registry.register(plugin);
      return new vscode.Disposable(() => registration.dispose());
    },
    lanes() {
      return registry.list().map((lane) => structuredClone(lane.manifest));
    },
  };
  return {
    getAPI(version: number): SwitchyardAPI {
      if (version !== 1) {
        throw new Error(`Switchyard API version ${String(version)} is not supported; supported versions: ${SUPPORTED_API_VERSIONS.join(', ')}`);
      }
      return v1;
    },
  };
}
