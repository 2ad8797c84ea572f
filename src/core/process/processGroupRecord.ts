import { z } from 'zod';

/**
 * A process group started for a run, as recorded with the run's lease so a
 * process that takes the run over can end it: the group id (its leader's
 * pid), the leader's start time in clock ticks since boot (field 22,
 * `starttime`, of /proc/<pid>/stat, see proc(5)), so a reused pid is not
 * mistaken for it, and the machine it runs on (host name and
 * /proc/sys/kernel/random/boot_id, which changes at every boot).
 */
export const ProcessGroupRecord = z
  .object({
    host: z.string(),
    bootId: z.string().optional(),
    pgid: z.number().int().positive(),
    startTicks: z.number().int().nonnegative().optional(),
  })
  .strict();
export type ProcessGroupRecord = z.infer<typeof ProcessGroupRecord>;
