import { errorMessage } from '../../core/errors';
import type { ProjectState } from '../../core/store/projectState';
import { queueCounts } from '../project/queueCounts';
import { runDuration } from '../views/formatDuration';
import type { HostMessage, PanelTask } from './panelProtocol';

/** What the panel shows: the snapshot's tasks (by number) with their runs, or why there are none. */
export function toPanelMessage(state: ProjectState | undefined, error: unknown): HostMessage {
  if (!state) return { type: 'error', message: error === undefined ? 'loading…' : errorMessage(error) };
  const tasks: PanelTask[] = [...state.tasks]
    .sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }))
    .map((task) => ({
      id: task.id,
      title: task.spec.title,
      state: task.state,
      lane: task.spec.lane ?? state.settings.defaultLane,
      failureReason: task.failureReason,
      runs: state.runs
        .filter((r) => r.taskId === task.id)
        .map((r) => ({ id: r.id, state: r.state, lane: r.lane, attempt: r.attempt, duration: runDuration(r), failureReason: r.failureReason })),
    }));
  return { type: 'state', defaultLane: state.settings.defaultLane, counts: queueCounts(state), tasks };
}
