import type { Octokit } from '@octokit/rest';
import { CheckRuns, CombinedStatus, parseGitHub, type CheckRun, type CommitStatus } from './githubSchemas';

/** One required (or observed) check as the gate sees it. */
export interface CheckState {
  name: string;
  state: 'success' | 'failure' | 'pending' | 'missing';
  /** GitHub's own word: a check run's conclusion or status, or a commit status's state. */
  detail?: string;
  source?: 'check-run' | 'status';
  url?: string;
  /** Title, summary and text of a check run, or a status's description (capped). */
  output?: string;
}

const PASSING = new Set(['success', 'neutral', 'skipped']);
const FAILING = new Set(['failure', 'cancelled', 'timed_out', 'action_required', 'stale', 'startup_failure']);
const MAX_OUTPUT = 4_000;

/** Every check run and commit status reported for `ref`, latest per name. */
export async function observeChecks(
  octokit: Octokit,
  owner: string,
  repo: string,
  ref: string,
): Promise<Map<string, { run?: CheckRun; status?: CommitStatus }>> {
  const seen = new Map<string, { run?: CheckRun; status?: CommitStatus }>();
  for (let page = 1; page <= 10; page++) {
    const res = await octokit.rest.checks.listForRef({ owner, repo, ref, per_page: 100, page });
    const data = parseGitHub(CheckRuns, res.data, `GET /repos/${owner}/${repo}/commits/${ref}/check-runs`);
    for (const run of data.check_runs) {
      const entry = seen.get(run.name) ?? {};
      if (!entry.run || run.id > entry.run.id) entry.run = run; // a re-run has a higher id
      seen.set(run.name, entry);
    }
    if (page * 100 >= data.total_count || data.check_runs.length < 100) break;
  }
  const res = await octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref, per_page: 100 });
  const combined = parseGitHub(CombinedStatus, res.data, `GET /repos/${owner}/${repo}/commits/${ref}/status`);
  for (const status of combined.statuses) {
    const entry = seen.get(status.context) ?? {};
    if (!entry.status || (status.updated_at ?? '') > (entry.status.updated_at ?? '')) entry.status = status;
    seen.set(status.context, entry);
  }
  return seen;
}

/** The state of one check by name; `appId` (from branch protection) restricts which app's check run counts. */
export function checkState(
  name: string,
  seen: Map<string, { run?: CheckRun; status?: CommitStatus }>,
  appId?: number | null,
): CheckState {
  const entry = seen.get(name);
  const run =
    entry?.run && (appId === undefined || appId === null || appId < 0 || entry.run.app?.id === appId)
      ? entry.run
      : undefined;
  if (run) {
    const url = run.details_url ?? run.html_url ?? undefined;
    const output = cap([run.output?.title, run.output?.summary, run.output?.text].filter(Boolean).join('\n'));
    if (run.status !== 'completed') return { name, state: 'pending', detail: run.status, source: 'check-run', url };
    const conclusion = run.conclusion ?? 'unknown';
    const state = PASSING.has(conclusion) ? 'success' : FAILING.has(conclusion) ? 'failure' : 'pending';
    return { name, state, detail: conclusion, source: 'check-run', url, ...(output ? { output } : {}) };
  }
  const status = entry?.status;
  if (status) {
    const state = status.state === 'success' ? 'success' : status.state === 'pending' ? 'pending' : 'failure';
    return {
      name,
      state,
      detail: status.state,
      source: 'status',
      url: status.target_url ?? undefined,
      ...(status.description ? { output: cap(status.description) } : {}),
    };
  }
  return { name, state: 'missing' };
}

function cap(text: string): string {
  return text.length > MAX_OUTPUT ? `${text.slice(0, MAX_OUTPUT - 1)}…` : text;
}

/**
 * The failing checks as one reason for a fix attempt: which check, GitHub's conclusion, its output and where to look.
 */
export function failureReason(failing: readonly CheckState[]): string {
  return failing
    .map(
      (c) =>
        `required check "${c.name}" ${c.detail ?? 'failed'}${c.output ? `: ${c.output}` : ''}${c.url ? ` (details: ${c.url})` : ''}`,
    )
    .join('\n');
}
