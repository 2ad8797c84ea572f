import type { Task, TaskSpecInput } from '../../core/model/task';
import { askTaskSpec } from '../prompts/askTaskSpec';
import type { CommandDeps } from './commandDeps';
import { hostLanes } from '../prompts/pickLane';

/**
 * `switchyard.newTask({title, spec?, files?, lane?, acceptance?, dependsOn?, priority?})` → the created Task.
 * Without an argument it asks for title, spec and lane. The core validates the spec.
 */
export async function newTask(deps: CommandDeps, arg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  let input: unknown = arg;
  if (input === undefined) {
    const { settings } = await project.state();
    input = await askTaskSpec(hostLanes(deps.host), settings.defaultLane);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error(`New Task expects an object like {"title": "…", "spec": "…"}; got ${JSON.stringify(input)}`);
  }
  return project.addTask(input as TaskSpecInput);
}
