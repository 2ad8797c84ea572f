import { z } from 'zod';
import type { QueueSummary } from '../../core/project/project';
import { describeZodError } from '../../core/model/zodIssues';
import { runQueueWithProgress } from '../progress/runQueueWithProgress';
import type { CommandDeps } from './commandDeps';

const RunQueueArgs = z.object({ taskIds: z.array(z.string().min(1)).optional() }).strict();

/** `switchyard.runQueue({taskIds?})` → the QueueSummary once the queue is drained (or stopped). */
export async function runQueue(deps: CommandDeps, arg?: unknown): Promise<QueueSummary> {
  const parsed = RunQueueArgs.safeParse(arg ?? {});
  if (!parsed.success) throw new Error(`Run Queue: ${describeZodError(parsed.error)}`);
  const project = await deps.host.get();
  const only = parsed.data.taskIds;
  return runQueueWithProgress(project, {
    title: only ? `Switchyard: running ${only.join(', ')}` : 'Switchyard: running the queue',
    taskIds: parsed.data.taskIds,
    shutdown: deps.shutdown,
  });
}
