import type { Octokit } from '@octokit/rest';
import { PullRequestDetail, parseGitHub } from './githubSchemas';

export interface PullRequestRef {
  octokit: Octokit;
  owner: string;
  repo: string;
}

/** The open pull request whose head is `branch` (of the same repository), if there is one. */
export async function findOpenPullRequest(at: PullRequestRef, branch: string): Promise<PullRequestDetail | undefined> {
  const { octokit, owner, repo } = at;
  const res = await octokit.rest.pulls.list({ owner, repo, head: `${owner}:${branch}`, state: 'open', per_page: 10 });
  const list = parseGitHub(PullRequestDetail.array(), res.data, `GET /repos/${owner}/${repo}/pulls?head=…`);
  return list.find((p) => p.head.ref === branch);
}

export async function createPullRequest(
  at: PullRequestRef,
  input: { head: string; base: string; title: string; body: string; draft: boolean },
): Promise<PullRequestDetail> {
  const { octokit, owner, repo } = at;
  const res = await octokit.rest.pulls.create({ owner, repo, ...input });
  return parseGitHub(PullRequestDetail, res.data, `POST /repos/${owner}/${repo}/pulls`);
}

export async function updatePullRequest(
  at: PullRequestRef,
  pullNumber: number,
  input: { title: string; body: string },
): Promise<PullRequestDetail> {
  const { octokit, owner, repo } = at;
  const res = await octokit.rest.pulls.update({ owner, repo, pull_number: pullNumber, ...input });
  return parseGitHub(PullRequestDetail, res.data, `PATCH /repos/${owner}/${repo}/pulls/${pullNumber}`);
}

export async function getPullRequest(at: PullRequestRef, pullNumber: number): Promise<PullRequestDetail> {
  const { octokit, owner, repo } = at;
  const res = await octokit.rest.pulls.get({ owner, repo, pull_number: pullNumber });
  return parseGitHub(PullRequestDetail, res.data, `GET /repos/${owner}/${repo}/pulls/${pullNumber}`);
}

/** Closes a pull request without merging it (`PATCH … {state: "closed"}`, as GitHub's Close pull request button). */
export async function closePullRequest(at: PullRequestRef, pullNumber: number): Promise<PullRequestDetail> {
  const { octokit, owner, repo } = at;
  const res = await octokit.rest.pulls.update({ owner, repo, pull_number: pullNumber, state: 'closed' });
  return parseGitHub(PullRequestDetail, res.data, `PATCH /repos/${owner}/${repo}/pulls/${pullNumber}`);
}
