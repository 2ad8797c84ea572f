import type { Octokit } from '@octokit/rest';
import { errorMessage } from '../errors';
import { BranchRules, RequiredStatusChecks, parseGitHub } from './githubSchemas';

export interface RequiredChecks {
  /** Check name → the app that must report it (undefined: any). */
  required: Map<string, number | undefined>;
  /** Where the names came from; empty: nothing readable required a check, so the checks seen on the head count. */
  sources: ('branch-protection' | 'rulesets')[];
  warnings: string[];
}

/**
 * The checks `base` requires, from branch protection
 * (`GET /repos/{o}/{r}/branches/{base}/protection/required_status_checks`: `contexts` and `checks[].context`) and
 * from every ruleset that applies to it (`GET /repos/{o}/{r}/rules/branches/{base}`, rules of type
 * `required_status_checks`). A 403/404 from either is a warning (a 404 for rulesets means none: no warning), not an
 * error: the other source still counts, and
 * with neither the caller waits for the checks it sees. Other errors are thrown (the caller classifies them).
 */
export async function readRequiredChecks(
  octokit: Octokit,
  owner: string,
  repo: string,
  base: string,
): Promise<RequiredChecks> {
  const out: RequiredChecks = { required: new Map(), sources: [], warnings: [] };
  const unreadable = (what: string, error: unknown): void => {
    const status = (error as { status?: number }).status;
    if (status !== 403 && status !== 404) throw error;
    out.warnings.push(`${what} of ${base} could not be read (${status}: ${firstLine(errorMessage(error))})`);
  };
  try {
    const res = await octokit.rest.repos.getStatusChecksProtection({ owner, repo, branch: base });
    const path = `GET /repos/${owner}/${repo}/branches/${base}/protection/required_status_checks`;
    const data = parseGitHub(RequiredStatusChecks, res.data, path);
    for (const context of data.contexts) if (!out.required.has(context)) out.required.set(context, undefined);
    for (const check of data.checks) out.required.set(check.context, appId(check.app_id));
    out.sources.push('branch-protection');
  } catch (error) {
    unreadable('branch protection', error);
  }
  try {
    const res = await octokit.rest.repos.getBranchRules({ owner, repo, branch: base, per_page: 100 });
    const rules = parseGitHub(BranchRules, res.data, `GET /repos/${owner}/${repo}/rules/branches/${base}`);
    let any = false;
    for (const rule of rules.filter((r) => r.type === 'required_status_checks')) {
      any = true;
      for (const check of rule.parameters?.required_status_checks ?? [])
        if (!out.required.has(check.context) || check.integration_id)
          out.required.set(check.context, appId(check.integration_id));
    }
    if (any) out.sources.push('rulesets');
  } catch (error) {
    // GitHub answers 404 when no ruleset applies or the token cannot see them: no rulesets, nothing to warn about.
    if ((error as { status?: number }).status !== 404) unreadable('the rulesets', error);
  }
  if (out.required.size === 0)
    out.warnings.push(`no required checks found for ${base}: waiting for the checks reported on the pull request`);
  return out;
}

function appId(id: number | null | undefined): number | undefined {
  return id === null || id === undefined || id < 0 ? undefined : id;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.replace(/ - https:\/\/docs\.github\.com\S*$/, '');
}
