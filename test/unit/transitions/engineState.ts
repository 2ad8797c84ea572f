import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { Run } from '../../../src/core/model/run';
import { TaskSpec, type Task, type TaskSpecInput } from '../../../src/core/model/task';
import { emptyProjectState, type ProjectState } from '../../../src/core/store/projectState';
import { scriptedLane } from '../../helpers/fakeLanes';

/** An in-memory project state with tasks, for engine decisions that need no git and no disk. */
export function stateWith(specs: (TaskSpecInput & { id?: string })[]): ProjectState {
  const state = emptyProjectState();
  const at = new Date(0).toISOString();
  for (const [i, { id, ...spec }] of specs.entries()) {
    const task: Task = {
      id: id ?? `t${i + 1}`,
      spec: TaskSpec.parse(spec),
      state: 'READY',
      baseCommit: 'base0',
      createdAt: at,
      updatedAt: at,
      attempts: 0,
      generation: 0,
    };
    state.tasks.push(task);
  }
  state.nextTaskNumber = specs.length + 1;
  return state;
}

export function registry(...lanes: { id: string; cap: number }[]): LaneRegistry {
  const r = new LaneRegistry();
  for (const lane of lanes)
    r.register(scriptedLane(lane.id, async () => ({ status: 'succeeded' }), { defaultRetryCap: lane.cap }));
  return r;
}

export function runOf(state: ProjectState, id: string): Run {
  return state.runs.find((r) => r.id === id)!;
}
