import { z } from 'zod';

/** One check the pull request's base requires (or, without a readable protection, one seen on the head). */
export const RequiredCheckRecord = z
  .object({
    /** The check run's name or the commit status's context. */
    name: z.string(),
    /** `missing`: not registered on the head yet; `pending`: queued or in progress. */
    state: z.enum(['missing', 'pending', 'success', 'failure']),
    /** GitHub's conclusion or status state as reported (`failure`, `timed_out`, `cancelled`, `error`, …). */
    conclusion: z.string().optional(),
    url: z.string().optional(),
  })
  .strict();
export type RequiredCheckRecord = z.infer<typeof RequiredCheckRecord>;

/** The pull request a run's branch was proposed in (`integration.mode: "pull-request"`). */
export const PullRequestRecord = z
  .object({
    number: z.number().int().positive(),
    url: z.string(),
    /** `owner/name` on GitHub. */
    repository: z.string(),
    /** The run's branch (the PR's head) and the branch it merges into. */
    head: z.string(),
    base: z.string(),
    state: z.enum(['open', 'merged', 'closed']),
    /** The head commit the checks below were read for. */
    headSha: z.string().optional(),
    checks: z.array(RequiredCheckRecord).optional(),
    mergeCommit: z.string().optional(),
    /** E.g. branch protection unreadable (403/404), so the checks seen on the head were used. */
    warnings: z.array(z.string()).optional(),
    openedAt: z.string().optional(),
    updatedAt: z.string().optional(),
  })
  .strict();
export type PullRequestRecord = z.infer<typeof PullRequestRecord>;
