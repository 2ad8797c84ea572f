import type { Task } from '../../core/model/task';
import { hostLanes, pickLane } from '../prompts/pickLane';
import { pickTask } from '../prompts/pickTask';
import { laneIdFrom, taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/** `switchyard.setTaskLane(taskId | item, laneId)` → the Task with its lane override set. */
export async function setTaskLane(deps: CommandDeps, taskArg?: unknown, laneArg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  const state = await project.state();
  const id = taskIdFrom(taskArg) ?? (await pickTask(state, 'Set the lane of which task?'));
  let lane = laneIdFrom(laneArg);
  if (lane === undefined) {
    const task = await project.tasks.get(id);
    const current = task.spec.lane ?? state.settings.defaultLane;
    lane = await pickLane(hostLanes(deps.host), `Lane for ${task.id} · ${task.spec.title} (now ${current})`, current);
  }
  return project.tasks.setLane(id, lane);
}
