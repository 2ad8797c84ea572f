import type { PullRequestRecord } from '../../src/core/model/pullRequestRecord';

/** A pull-request record as the integration stores it on a run (the real schema's fields), for view tests. */
export function pullRequest(
  number: number,
  overrides: Partial<PullRequestRecord> = {},
  origin = 'https://github.example',
): PullRequestRecord {
  return {
    number,
    url: `${origin}/acme/widgets/pull/${number}`,
    repository: 'acme/widgets',
    head: `switchyard/t${number}.1`,
    base: 'main',
    state: 'open',
    headSha: 'c'.repeat(40),
    checks: [
      { name: 'build', state: 'success', conclusion: 'success' },
      { name: 'unit tests', state: 'pending' },
      { name: 'lint', state: 'missing' },
    ],
    openedAt: '2025-03-04T10:05:00.000Z',
    updatedAt: '2025-03-04T10:06:00.000Z',
    ...overrides,
  };
}
