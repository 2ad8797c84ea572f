import { z } from 'zod';
import { LaneId } from '../model/task';

/**
 * The orchestrator's project settings (part of `ProjectSettings`). Every
 * object has defaults for each field, so `{}` (or an older state file without
 * them) reads as the documented defaults.
 */

/** Work-in-progress limits per stage: how many tasks may be in it at once, across every process on the repository. */
export const WipLimits = z
  .object({
    RUNNING: z.number().int().min(1).max(64).default(4),
    VERIFYING: z.number().int().min(1).max(64).default(2),
    REVIEWING: z.number().int().min(1).max(64).default(3),
    INTEGRATING: z.number().int().min(1).max(64).default(1),
  })
  .strict();
export type WipLimits = z.infer<typeof WipLimits>;

export const ReviewSettings = z
  .object({
    /** Off by default: a passed verification goes straight to integration. */
    enabled: z.boolean().default(false),
    /** The lane that reviews; default: the lane that did the work. */
    lane: LaneId.optional(),
  })
  .strict();

const BRANCH = /^(?!\/|.*\/\/|.*\.\.|.*\/$|.*\.lock$|.*[\s~^:?*[\\])[\x21-\x7e]+$/;

export const IntegrationSettings = z
  .object({
    /** Merge each verified (and approved) run into `targetBranch`; off: the work stays on the run's branch. */
    enabled: z.boolean().default(true),
    targetBranch: z
      .string()
      .regex(BRANCH, 'targetBranch must be a valid branch name')
      .default('switchyard/integration'),
    /**
     * `local`: merged without a checkout; `push`: merged the same way, then the target branch is pushed to `remote`.
     */
    mode: z.enum(['local', 'push']).default('local'),
    remote: z.string().min(1).default('origin'),
  })
  .strict();
export type IntegrationSettings = z.infer<typeof IntegrationSettings>;

export const BreakerSettings = z
  .object({
    /** This many failures with the same code within `windowMs` open a lane's breaker. */
    failures: z.number().int().min(1).max(100).default(3),
    windowMs: z
      .number()
      .int()
      .min(1_000)
      .default(10 * 60_000),
    /** How long an open breaker waits before it lets one probe run through. */
    cooldownMs: z
      .number()
      .int()
      .min(100)
      .default(2 * 60_000),
    /** Successes in a row (1, then 2, then 4… at once) that close a half-open breaker. */
    closeAfter: z.number().int().min(1).max(20).default(3),
  })
  .strict();
export type BreakerSettings = z.infer<typeof BreakerSettings>;

export const RetryBackoff = z
  .object({
    /** Wait before the second attempt after a transient failure; doubles (`coefficient`) up to `maxMs`. */
    initialMs: z.number().int().min(0).default(1_000),
    coefficient: z.number().min(1).default(2),
    maxMs: z.number().int().min(0).default(60_000),
  })
  .strict();

/**
 * The cap on a run's stored lane output (`runs/<run>/events.jsonl`): head and tail kept, a marker says what was
 * dropped.
 */
export const RunOutputSettings = z
  .object({
    /** Lane output bytes a run stores at most: the first half as it comes, then the latest part that fits. */
    maxBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .default(10 * 1024 * 1024),
    /**
     * Longer output lines (and strings in lane events) are cut with a marker; the lanes cut lines at 1 MiB before that.
     */
    maxLineChars: z
      .number()
      .int()
      .min(256)
      .max(512 * 1024)
      .default(64 * 1024),
  })
  .strict();

/** The orchestrator's fields of ProjectSettings. */
export const orchestratorSettingsShape = {
  /** Stage WIP limits; `RUNNING` is what `concurrency` used to be (an old `concurrency` value is read into it). */
  wip: WipLimits.prefault({}),
  review: ReviewSettings.prefault({}),
  integration: IntegrationSettings.prefault({}),
  runOutput: RunOutputSettings.prefault({}),
  /** When a lane's attempt budget is spent, the task moves to the next of these lanes with a fresh budget. */
  fallbackLanes: z.array(LaneId).default([]),
  breaker: BreakerSettings.prefault({}),
  retryBackoff: RetryBackoff.prefault({}),
  /** Priority points a READY task gains per minute it waits (aging), so low priority is never starved. */
  agingPerMinute: z.number().min(0).max(100).default(1),
  /** Run worktrees: an integrated run's is removed at once; a failed or salvaged run's is kept this many days. */
  worktree: z
    .object({
      /** Days a failed, canceled or salvaged run's worktree is kept; the next drain after that removes it. */
      keepFailedDays: z.number().min(0).default(7),
    })
    .strict()
    .prefault({}),
};

/** Reads the pre-orchestrator `concurrency` setting as `wip.RUNNING`. */
export function migrateSettings(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || !('concurrency' in raw)) return raw;
  const { concurrency, ...rest } = raw as Record<string, unknown> & { wip?: Record<string, unknown> };
  if (typeof concurrency !== 'number') return raw;
  return { ...rest, wip: { RUNNING: concurrency, ...(rest.wip ?? {}) } };
}
