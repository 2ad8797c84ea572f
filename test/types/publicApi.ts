/**
 * Compile-time check (run by `tsc --noEmit`) that switchyard.d.ts, the
 * types-only contract third parties build against, matches the implementation.
 */
import type * as Public from '../../switchyard';
import type { LanePlugin, LaneRunInput } from '../../src/core/lanes/lanePlugin';
import type { LaneResultInput } from '../../src/core/model/laneResult';
import type { LaneEventInput, Usage } from '../../src/core/model/laneEvent';
import type { LaneManifestInput } from '../../src/core/model/laneManifest';
import type { SwitchyardAPI } from '../../src/ui/switchyardApi';

type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// What a third party writes is accepted by the registry…
export type PluginAccepted = Assert<Public.LanePlugin extends LanePlugin ? true : false>;
export type ManifestAccepted = Assert<Public.LaneManifest extends LaneManifestInput ? true : false>;
export type ResultAccepted = Assert<Public.LaneResult extends LaneResultInput ? true : false>;
export type EventsAccepted = Assert<Public.LaneEvent extends LaneEventInput ? true : false>;
// …and lanes get everything the contract promises.
export type InputProvided = Assert<LaneRunInput extends Public.LaneRunInput ? true : false>;
export type UsageSame = Assert<Same<Required<Public.Usage>, Usage>>;
export type ApiProvided = Assert<SwitchyardAPI['registerLane'] extends (plugin: Public.LanePlugin) => unknown ? true : false>;
