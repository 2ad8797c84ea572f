/**
 * The public API of the Switchyard extension, for other extensions that add
 * lanes. Types only; modelled on the git extension's API:
 *
 * ```ts
 * const switchyard = vscode.extensions.getExtension<SwitchyardExtension>('switchyard.switchyard')!;
 * const api = (await switchyard.activate()).getAPI(1);
 * context.subscriptions.push(api.registerLane(myLane));
 * ```
 */
import type { Disposable } from 'vscode';
import type { LaneManifest as LaneManifestData } from '../core/model/laneManifest';
import type { LanePlugin } from '../api';

export type { LanePlugin, LaneRunInput, LaneTask, LaneAttempt, LaneManifest, LaneEvent, LaneResult, Usage } from '../api';

/** Version 1 of the API. */
export interface SwitchyardAPI {
  /**
   * Registers a lane plugin for this window. Its manifest is validated
   * (strict); an invalid manifest, an unsupported lane API version or a
   * duplicate id throws. Disposing the result removes the lane.
   */
  registerLane(plugin: LanePlugin): Disposable;
  /** The manifests of the registered lanes (built-in and added), sorted by id, as validated. */
  lanes(): LaneManifestData[];
}

/** What `activate()` returns. */
export interface SwitchyardExtension {
  /** The API of `version`; any version but 1 throws an Error listing the supported ones. */
  getAPI(version: 1): SwitchyardAPI;
}

export const SUPPORTED_API_VERSIONS: readonly number[] = [1];
