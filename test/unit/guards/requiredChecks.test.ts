import assert from 'node:assert/strict';
import { Octokit } from '@octokit/rest';
import { readRequiredChecks } from '../../../src/core/github/requiredChecks';
import { type FakeGitHub, startFakeGitHub } from '../../fixtures/fakeGitHub';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
// GET /repos/{o}/{r}/branches/{b}/protection/required_status_checks, as GitHub answers it.
const protection = () => ({ status: 200, body: { strict: false, contexts: ['build'], checks: [] } });

describe('required checks of a base branch (GitHub double over HTTP)', () => {
  let gh: FakeGitHub | undefined;
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
  });
  const octokit = () => new Octokit({ baseUrl: gh!.url, auth: 'test-token', log: quiet });

  it('a 404 for the rulesets means none: no warning on the pull request', async () => {
    // No route for GET /repos/o/r/rules/branches/main: the double answers 404 {"message": "Not Found"}.
    gh = await startFakeGitHub({ 'GET /repos/o/r/branches/main/protection/required_status_checks': protection });
    const checks = await readRequiredChecks(octokit(), 'o', 'r', 'main');
    assert.deepEqual([...checks.required.keys()], ['build']);
    assert.deepEqual(checks.warnings, []);
    assert.ok(gh.requests.includes('GET /repos/o/r/rules/branches/main'), 'the rulesets were asked for');
  });

  it('a 403 for the rulesets is still said (the token may lack a permission)', async () => {
    gh = await startFakeGitHub({
      'GET /repos/o/r/branches/main/protection/required_status_checks': protection,
      'GET /repos/o/r/rules/branches/main': () => ({
        status: 403,
        body: { message: 'Resource not accessible by integration' },
      }),
    });
    const checks = await readRequiredChecks(octokit(), 'o', 'r', 'main');
    assert.deepEqual(checks.warnings, [
      'the rulesets of main could not be read (403: Resource not accessible by integration)',
    ]);
  });
});
