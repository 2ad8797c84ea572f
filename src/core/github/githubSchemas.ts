import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { describeZodError } from '../model/zodIssues';

/**
 * The parts of GitHub REST responses the CI gate reads, parsed where they
 * enter. Shapes from the GitHub REST docs: "Get a pull request",
 * "Get status checks protection" (branches/{branch}/protection/required_status_checks),
 * "List check runs for a Git reference" (commits/{ref}/check-runs) and
 * "Get the combined status for a specific reference" (commits/{ref}/status).
 * Not strict: GitHub adds fields, and we ignore what we do not read.
 */
export const PullRequest = z.object({
  number: z.number().int(),
  head: z.object({ sha: z.string().min(1), ref: z.string() }),
  base: z.object({ ref: z.string().min(1) }),
});

/** "Get a pull request" / "List pull requests" / "Create a pull request": what the pull-request flow reads. */
export const PullRequestDetail = z.object({
  number: z.number().int(),
  html_url: z.string(),
  state: z.enum(['open', 'closed']),
  draft: z.boolean().optional(),
  merged: z.boolean().optional(),
  merged_at: z.string().nullable().optional(),
  merge_commit_sha: z.string().nullable().optional(),
  /** null while GitHub computes it. */
  mergeable: z.boolean().nullable().optional(),
  mergeable_state: z.string().optional(),
  head: z.object({ sha: z.string().min(1), ref: z.string() }),
  base: z.object({ ref: z.string().min(1) }),
});
export type PullRequestDetail = z.infer<typeof PullRequestDetail>;

/** "Get a repository": whether it exists for this token, its default branch and the token's permissions on it. */
export const Repository = z.object({
  full_name: z.string(),
  default_branch: z.string(),
  permissions: z.object({ push: z.boolean().optional(), pull: z.boolean().optional() }).optional(),
});

/** "Get rules for a branch": the active rules of every ruleset that applies (required checks in `parameters`). */
export const BranchRules = z.array(
  z.object({
    type: z.string(),
    ruleset_id: z.number().int().optional(),
    parameters: z
      .object({
        required_status_checks: z
          .array(z.object({ context: z.string(), integration_id: z.number().int().nullable().optional() }))
          .optional(),
      })
      .passthrough()
      .optional(),
  }),
);

export const RequiredStatusChecks = z.object({
  strict: z.boolean().optional(),
  contexts: z.array(z.string()).default([]),
  checks: z.array(z.object({ context: z.string(), app_id: z.number().int().nullable().optional() })).default([]),
});

export const CheckRun = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullable().optional(),
  started_at: z.string().nullable().optional(),
  completed_at: z.string().nullable().optional(),
  details_url: z.string().nullable().optional(),
  html_url: z.string().nullable().optional(),
  app: z.object({ id: z.number().int() }).nullable().optional(),
  output: z
    .object({
      title: z.string().nullable().optional(),
      summary: z.string().nullable().optional(),
      text: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type CheckRun = z.infer<typeof CheckRun>;

export const CheckRuns = z.object({ total_count: z.number().int(), check_runs: z.array(CheckRun) });

export const CommitStatus = z.object({
  context: z.string(),
  state: z.enum(['error', 'failure', 'pending', 'success']),
  description: z.string().nullable().optional(),
  target_url: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
});
export type CommitStatus = z.infer<typeof CommitStatus>;

export const CombinedStatus = z.object({
  state: z.string(),
  total_count: z.number().int().optional(),
  statuses: z.array(CommitStatus),
});

export const MergeResult = z.object({
  sha: z.string().nullable().optional(),
  merged: z.boolean(),
  message: z.string().optional(),
});

/** Parses GitHub's answer for `what`; an unexpected shape is an error naming the endpoint and field. */
export function parseGitHub<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new SwitchyardError(
      'invalid-input',
      `unexpected GitHub response for ${what}: ${describeZodError(parsed.error)}`,
    );
  return parsed.data;
}
