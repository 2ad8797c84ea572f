import { z } from 'zod';
import { Usage } from '../model/laneEvent';

export const JOURNAL_VERSION = 1;

const base = {
  v: z.literal(JOURNAL_VERSION),
  seq: z.number().int().min(1),
  ts: z.string(),
  runId: z.string(),
};

export const CallKind = z.enum(['model', 'tool']);
export const ReplayRule = z.enum(['safe', 'never']);
export type CallKind = z.infer<typeof CallKind>;
export type ReplayRule = z.infer<typeof ReplayRule>;

/**
 * One line of a run's journal. `call` is the call's position in the run
 * (1, 2, …); an outcome names its intent by `intent` (the intent's seq).
 */
export const JournalEvent = z.discriminatedUnion('type', [
  z
    .object({ ...base, type: z.literal('run-started'), lane: z.string(), attempt: z.number().int(), owner: z.string() })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('intent'),
      call: z.number().int().min(1),
      kind: CallKind,
      name: z.string(),
      input: z.unknown(),
      replay: ReplayRule,
      key: z.string(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('outcome'),
      intent: z.number().int().min(1),
      call: z.number().int().min(1),
      ok: z.boolean(),
      output: z.unknown().optional(),
      error: z.string().optional(),
      usage: Usage.optional(),
      /** Set when a `never` call was interrupted: it may or may not have happened. */
      uncertain: z.boolean().optional(),
    })
    .strict(),
  z.object({ ...base, type: z.literal('resumed'), owner: z.string(), previousOwner: z.string().optional() }).strict(),
  z.object({ ...base, type: z.literal('warning'), message: z.string() }).strict(),
]);
export type JournalEvent = z.infer<typeof JournalEvent>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the writer stamps it with v, seq, ts and runId. */
export type JournalEntry = DistributiveOmit<JournalEvent, 'v' | 'seq' | 'ts' | 'runId'>;
