/**
 * The pipeline's stages, in order: the states in which a task holds a run slot or a downstream stage slot (its
 * "active" states), each with its WIP limit. The one list of them; its own file without zod, so the extension's status
 * bar and the webview can use it without the schemas.
 */
export const STAGES = ['RUNNING', 'VERIFYING', 'REVIEWING', 'INTEGRATING', 'AWAITING_CI'] as const;
export type Stage = (typeof STAGES)[number];

/** Whether a task in `state` is in one of the stages. */
export function isStage(state: string): state is Stage {
  return (STAGES as readonly string[]).includes(state);
}

/** A record with `value` for each stage (counts, peaks, waits). */
export function perStage<T>(value: T): Record<Stage, T> {
  return Object.fromEntries(STAGES.map((stage) => [stage, value])) as Record<Stage, T>;
}
