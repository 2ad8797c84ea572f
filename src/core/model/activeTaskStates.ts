/**
 * States in which a task holds a run slot or a downstream stage slot. Its own file without zod: the extension's
 * status bar counts them at activation, before the rest of the extension loads.
 */
export const ACTIVE_TASK_STATE_NAMES = ['RUNNING', 'VERIFYING', 'REVIEWING', 'INTEGRATING', 'AWAITING_CI'] as const;
