import { createCommandLane } from '../../plugins/command';
import type { LanePlugin } from '../api';
import { LaneRegistry } from '../core/lanes/laneRegistry';

/** The lanes that ship with Switchyard. */
export function builtinLanes(): LanePlugin[] {
  return [createCommandLane()];
}

export function registryWithBuiltins(): LaneRegistry {
  const registry = new LaneRegistry();
  for (const lane of builtinLanes()) registry.register(lane);
  return registry;
}
