import type { ProjectSettings } from '../../core/project/project';
import { hostLanes, pickLane } from '../prompts/pickLane';
import { laneIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.setDefaultLane(laneId)` → the project settings after the change, recorded as a routing change. An unknown
 * lane is an error listing the lanes.
 */
export async function setDefaultLane(deps: CommandDeps, arg?: unknown): Promise<ProjectSettings> {
  const project = await deps.host.get();
  const current = (await project.state()).settings.defaultLane;
  const lane =
    laneIdFrom(arg) ??
    (await pickLane(hostLanes(deps.host), `Default lane for this project (now ${current})`, current));
  await project.routing.setDefaultLane(lane, 'set from VS Code (Set Project Default Lane)');
  return (await project.state()).settings;
}
