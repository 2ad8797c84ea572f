import { z } from 'zod';
import { classed } from '../model/settingClass';
import { LaneId } from '../model/task';

/**
 * The orchestrator's project settings (part of `ProjectSettings`). Every
 * object has defaults for each field, so `{}` (or an older state file without
 * them) reads as the documented defaults.
 */

/** Work-in-progress limits per stage: how many tasks may be in it at once, across every process on the repository. */
export const WipLimits = classed(
  z
    .object({
      RUNNING: z.number().int().min(1).max(64).default(4),
      VERIFYING: z.number().int().min(1).max(64).default(2),
      REVIEWING: z.number().int().min(1).max(64).default(3),
      INTEGRATING: z.number().int().min(1).max(64).default(1),
      /** Pull requests waiting for their required checks (CI capacity). */
      AWAITING_CI: z.number().int().min(1).max(64).default(4),
    })
    .strict(),
  'plain',
);
export type WipLimits = z.infer<typeof WipLimits>;

export const ReviewSettings = classed(
  z
    .object({
      /** Off by default: a passed verification goes straight to integration. */
      enabled: z.boolean().default(false),
      /** The lane that reviews; default: the lane that did the work. */
      lane: LaneId.optional(),
    })
    .strict(),
  'plain',
);

const BRANCH = /^(?!\/|.*\/\/|.*\.\.|.*\/$|.*\.lock$|.*[\s~^:?*[\\])[\x21-\x7e]+$/;

export const IntegrationSettings = z
  .object({
    /** Merge each verified (and approved) run into `targetBranch`; off: the work stays on the run's branch. */
    enabled: classed(z.boolean().default(true), 'plain'),
    targetBranch: classed(
      z.string().regex(BRANCH, 'targetBranch must be a valid branch name').default('switchyard/integration'),
      'plain',
    ),
    /**
     * `local`: merged without a checkout; `push`: merged the same way, then the target branch is pushed to `remote`.
     */
    mode: classed(z.enum(['local', 'push', 'pull-request']).default('local'), 'plain'),
    /** Push and pull-request modes send the GitHub token (or git's credentials) to this remote's host. */
    remote: classed(z.string().min(1).default('origin'), 'routes-credential'),
    /** Pull-request mode: the branch the pull request merges into (default: the repository's default branch). */
    base: classed(z.string().regex(BRANCH, 'base must be a valid branch name').optional(), 'plain'),
    mergeMethod: classed(z.enum(['merge', 'squash', 'rebase']).default('squash'), 'plain'),
    draft: classed(z.boolean().default(false), 'plain'),
    /** How long the CI gate waits for the required checks before the run fails. */
    ciTimeoutSeconds: classed(z.number().positive().default(1800), 'plain'),
    /** How often the CI gate polls the pull request and its checks. */
    ciPollSeconds: classed(z.number().positive().default(30), 'plain'),
  })
  .strict();
export type IntegrationSettings = z.infer<typeof IntegrationSettings>;

export const BreakerSettings = classed(
  z
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
    .strict(),
  'plain',
);
export type BreakerSettings = z.infer<typeof BreakerSettings>;

export const RetryBackoff = classed(
  z
    .object({
      /** Wait before the second attempt after a transient failure; doubles (`coefficient`) up to `maxMs`. */
      initialMs: z.number().int().min(0).default(1_000),
      coefficient: z.number().min(1).default(2),
      maxMs: z.number().int().min(0).default(60_000),
    })
    .strict(),
  'plain',
);

/**
 * The cap on a run's stored lane output (`runs/<run>/events.jsonl`): head and tail kept, a marker says what was
 * dropped.
 */
export const RunOutputSettings = classed(
  z
    .object({
      /** Lane output bytes a run stores at most: the first half as it comes, then the latest part that fits. */
      maxBytes: z
        .number()
        .int()
        .min(1024 * 1024)
        .default(10 * 1024 * 1024),
      /**
       * Longer output lines (and strings in lane events) are cut with a marker; the lanes cut lines at 1 MiB before
       * that.
       */
      maxLineChars: z
        .number()
        .int()
        .min(256)
        .max(512 * 1024)
        .default(64 * 1024),
    })
    .strict(),
  'plain',
);

const RepoPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), 'a path inside the repository, relative');

/** How each run's fresh worktree is prepared before its lane starts (see prepareWorktree.ts). */
export const WorktreeSettings = z
  .object({
    /** Shell commands run in each new worktree, in order, before the lane starts (e.g. `npm ci --offline`). */
    setup: classed(z.array(z.string().min(1)).default([]), 'executes'),
    /** Files copied from the main checkout into each new worktree (e.g. `.env`). */
    copy: classed(z.array(RepoPath).default([]), 'reads-outside-worktree'),
    /** Folders symlinked from the main checkout into each new worktree (e.g. `node_modules`), shared by every run. */
    link: classed(z.array(RepoPath).default([]), 'reads-outside-worktree'),
    /** How long all setup commands of one worktree may take together. */
    setupTimeoutSeconds: classed(z.number().int().min(1).default(600), 'plain'),
    /** Keep what setup produced per lockfile hash and copy it into later worktrees instead of running setup. */
    setupCache: classed(z.boolean().default(true), 'plain'),
    /** A setup cache entry not stored or restored for this many days is removed (at the start of a drain). */
    setupCacheMaxDays: classed(z.number().positive().default(14), 'plain'),
    /** The setup cache is kept within this many megabytes: the least recently used entries are removed first. */
    setupCacheMaxMb: classed(z.number().int().min(0).default(4096), 'plain'),
    /** Worktrees of failed or salvaged runs are kept this many days. */
    keepFailedDays: classed(z.number().min(0).default(7), 'plain'),
    /** Branches of a DONE task whose change was integrated or merged are deleted this many days after. */
    keepBranchesDays: classed(z.number().min(0).default(7), 'plain'),
  })
  .strict();
export type WorktreeSettings = z.infer<typeof WorktreeSettings>;

/** Where pull-request mode reaches GitHub, and with which identity. */
export const GitHubSettings = z
  .object({
    /** `https://api.github.com`, or GitHub Enterprise's `https://HOST/api/v3`. */
    apiUrl: classed(z.string().url().default('https://api.github.com'), 'routes-credential'),
    /** `owner/name`; default: read from the URL of `integration.remote`. */
    repository: classed(
      z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+$/, 'repository must be owner/name')
        .optional(),
      'routes-credential',
    ),
    /** A GitHub App whose installation tokens are used instead of GITHUB_TOKEN. */
    app: classed(
      z
        .object({
          appId: z.union([z.number().int().positive(), z.string().min(1)]),
          installationId: z.number().int().positive(),
          /** The app's private key (PEM), absolute or relative to the repository. */
          privateKeyFile: z.string().min(1),
        })
        .strict()
        .optional(),
      'routes-credential',
    ),
  })
  .strict();
export type GitHubSettings = z.infer<typeof GitHubSettings>;

/** The orchestrator's fields of ProjectSettings. */
export const orchestratorSettingsShape = {
  /** Stage WIP limits; `RUNNING` is what `concurrency` used to be (an old `concurrency` value is read into it). */
  wip: WipLimits.prefault({}),
  review: ReviewSettings.prefault({}),
  integration: IntegrationSettings.prefault({}),
  runOutput: RunOutputSettings.prefault({}),
  /** When a lane's attempt budget is spent, the task moves to the next of these lanes with a fresh budget. */
  fallbackLanes: classed(z.array(LaneId).default([]), 'plain'),
  breaker: BreakerSettings.prefault({}),
  retryBackoff: RetryBackoff.prefault({}),
  /** Priority points a READY task gains per minute it waits (aging), so low priority is never starved. */
  agingPerMinute: classed(z.number().min(0).max(100).default(1), 'plain'),
  worktree: WorktreeSettings.prefault({}),
  github: GitHubSettings.prefault({}),
};

/** Reads the pre-orchestrator `concurrency` setting as `wip.RUNNING`. */
export function migrateSettings(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || !('concurrency' in raw)) return raw;
  const { concurrency, ...rest } = raw as Record<string, unknown> & { wip?: Record<string, unknown> };
  if (typeof concurrency !== 'number') return raw;
  return { ...rest, wip: { RUNNING: concurrency, ...(rest.wip ?? {}) } };
}
