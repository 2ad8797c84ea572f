/**
 * The messages between the queue panel's webview and the extension host.
 * Shared by both sides (this module must not import `vscode`); each side
 * parses what it receives.
 */
import { z } from 'zod';
import { RunState } from '../../core/model/runStates';
import { TaskState } from '../../core/model/taskStates';

export const PanelRun = z
  .object({
    id: z.string(),
    state: RunState,
    lane: z.string(),
    attempt: z.number().int(),
    duration: z.string(),
    failureReason: z.string().optional(),
  })
  .strict();
export type PanelRun = z.infer<typeof PanelRun>;

export const PanelTask = z
  .object({
    id: z.string(),
    title: z.string(),
    state: TaskState,
    lane: z.string(),
    failureReason: z.string().optional(),
    runs: z.array(PanelRun),
  })
  .strict();
export type PanelTask = z.infer<typeof PanelTask>;

/** Host → webview. */
export const HostMessage = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('state'),
      defaultLane: z.string(),
      counts: z.object({ running: z.number().int(), queued: z.number().int() }).strict(),
      tasks: z.array(PanelTask),
    })
    .strict(),
  z.object({ type: z.literal('error'), message: z.string() }).strict(),
]);
export type HostMessage = z.infer<typeof HostMessage>;

export const PANEL_COMMANDS = ['runQueue', 'runTask', 'cancelTask', 'retryTask', 'refresh'] as const;

/** Webview → host. */
export const WebviewMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('command'), command: z.enum(PANEL_COMMANDS), taskId: z.string().optional() }).strict(),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;
