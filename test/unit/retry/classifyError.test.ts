import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { classify, loadErrorRules } from '../../../src/core/retry/classifyError';
import { makeTempDir } from '../../helpers/tempRepo';

type Expected = [cls: 'transient' | 'ci-pending' | 'permanent', rule: string];

/**
 * Real-world error strings, each quoted (sometimes shortened with "…") from
 * the public issue thread or API documentation named in `source`.
 */
const REAL_WORLD: { text: string; expect: Expected; source: string }[] = [
  // GitHub: required checks not reported yet (singular and plural) → wait and retry
  {
    text: 'PUT https://api.github.com/repos/claroline/Claroline/pulls/850/merge 405: Required status check "continuous-integration/travis-ci" is expected',
    expect: ['ci-pending', 'required-check-expected'],
    source: 'https://github.com/claroline/Distribution/issues/492',
  },
  {
    text: `405 {'message': 'Required status check "Codacy/PR Quality Review" is expected.', 'documentation_url': 'https://help.github.com/articles/about-protected-branches'}`,
    expect: ['ci-pending', 'required-check-expected'],
    source: 'https://github.com/PennyDreadfulMTG/Penny-Dreadful-Tools/issues/6226',
  },
  {
    text: 'java.io.IOException: {"message":"Required status check \\"Swift Test OS X Platform (smoke test)\\" is expected","documentation_url":"https://help.github.com/articles/about-protected-branches"}',
    expect: ['ci-pending', 'required-check-expected'],
    source: 'https://github.com/swiftlang/swift/pull/4459',
  },
  {
    text: 'remote: error: GH006: Protected branch update failed for refs/heads/lede-17.01.\nremote: error: Required status check "DCO" is expected.',
    expect: ['ci-pending', 'required-check-expected'],
    source: 'https://github.com/openwrt/packages/issues/7624',
  },
  {
    text: 'Merge failed (attempt 1/3): 2 of 2 required status checks are expected. - https://docs.github.com/articles/about-protected-branches',
    expect: ['ci-pending', 'required-check-expected'],
    source: 'https://github.com/akheron/dependabot-cron-action/issues/11',
  },
  {
    text: 'GitHub rejects the merge with code 405: Repository rule violations found... Required status check "<check>" is expected.',
    expect: ['ci-pending', 'required-check-expected'],
    source: 'https://github.com/akuity/kargo/issues/6397',
  },
  {
    text: 'continuous-integration/travis-ci Expected — Waiting for status to be reported - Required',
    expect: ['ci-pending', 'required-check-expected'],
    source: 'https://github.com/githubschool/open-enrollment-classes-introduction-to-github/pull/19240',
  },

  // GitHub: policy refusals → permanent
  {
    text: 'remote: error: GH013: Repository rule violations found for refs/heads/main.\nremote: - Changes must be made through a pull request.\nremote: - 12 of 12 required status checks are expected.\nremote: - Code scanning is waiting for results from CodeQL for the commit cfbb5c1.',
    expect: ['permanent', 'pull-request-required'],
    source: 'https://github.com/gleam-lang/gleam/pull/6080',
  },
  {
    text: 'GraphQL: Required status check "check name" is failing. (mergePullRequest)',
    expect: ['permanent', 'required-check-failing'],
    source: 'https://github.com/cli/cli/issues/8206',
  },
  {
    text: 'remote: error: GH006: Protected branch update failed for refs/heads/main.\nremote: error: Commits must have valid signatures.',
    expect: ['permanent', 'signature-required'],
    source: 'https://github.com/sustainable-computing-io/kepler/pull/240',
  },
  {
    text: 'remote: error: GH006: Protected branch update failed for refs/heads/update-cacert-pem.\nremote: - Commits must have verified signatures.\nremote:   Found 1 violation:',
    expect: ['permanent', 'signature-required'],
    source: 'https://github.com/Chia-Network/chia-blockchain/pull/19896',
  },
  {
    text: "PUT https://api.github.com/repos/claroline/Claroline/pulls/835/merge 405: You're not authorized to push to this branch. Visit https://help.github.com/articles/about-protected-branches/ for more information.",
    expect: ['permanent', 'permission-denied'],
    source: 'https://github.com/claroline/Distribution/issues/492',
  },
  {
    text: 'RequestError [HttpError]: Resource not accessible by integration',
    expect: ['permanent', 'permission-denied'],
    source: 'https://github.com/Bashamega/WebDevTools/issues/163',
  },
  {
    text: 'gh: Resource not accessible by integration (HTTP 403)',
    expect: ['permanent', 'permission-denied'],
    source: 'https://github.com/PavanMudigonda/html-reporter-github-pages/issues/43',
  },
  {
    text: 'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
    expect: ['permanent', 'permission-denied'],
    source: 'https://github.com/131/h264-live-player/issues/59',
  },
  {
    text: 'HttpError: Bad credentials',
    expect: ['permanent', 'auth-invalid'],
    source: 'https://github.com/kevgo/prettifier/issues/94',
  },
  {
    text: " ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'git@github.com:REDACTED/my-pihole-lists.git'\nhint: Updates were rejected because the tip of your current branch is behind",
    expect: ['permanent', 'push-rejected'],
    source: 'https://github.com/stevejenkins/pihole-cloudsync/issues/21',
  },

  // Model APIs: auth, billing, size → permanent
  {
    text: 'Invalid API key · Please run /login',
    expect: ['permanent', 'auth-invalid'],
    source: 'https://github.com/anthropics/claude-code/issues/8367',
  },
  {
    text: 'Error: Could not resolve authentication method. Expected either apiKey or authToken to be set.',
    expect: ['permanent', 'auth-invalid'],
    source: 'https://github.com/anthropics/claude-code/issues/8367',
  },
  {
    text: '400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key.',
    expect: ['permanent', 'auth-invalid'],
    source: 'https://github.com/abhishekpatel946/Smart-Vehicle-Fleet-Manager/issues/86',
  },
  {
    text: '{"error": {"message": "You exceeded your current quota, please check your plan and billing details.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}',
    expect: ['permanent', 'quota-exhausted'],
    source: 'https://github.com/ChatGPTNextWeb/NextChat/issues/3123',
  },
  {
    text: 'Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"},"request_id":"req_011CVjxiYzEFcAQC4Fk87zw2"}',
    expect: ['permanent', 'context-too-long'],
    source: 'https://github.com/earendil-works/pi/issues/102',
  },
  {
    text: "RateLimitError: Error code: 429 - {'error': {'message': 'Request too large for gpt-4o in organization org-78asdf87asdf9aaa8976 on tokens per min (TPM): Limit 30000, Requested 31538. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
    expect: ['permanent', 'context-too-long'],
    source: 'https://github.com/TheR1D/shell_gpt/issues/653',
  },

  // OAuth: missing refresh tokens → permanent (a human must sign in again)
  {
    text: 'Error: No refresh token is set.',
    expect: ['permanent', 'refresh-token-missing'],
    source: 'https://github.com/googleworkspace/sheets-api-codelab/issues/18',
  },
  {
    text: '[Error: No access or refresh token is set.]',
    expect: ['permanent', 'refresh-token-missing'],
    source: 'https://github.com/googleapis/google-api-nodejs-client/issues/672',
  },
  {
    text: 'error from token exchange: ErrorType=invalid_request Description=Missing required parameter: refresh_token',
    expect: ['permanent', 'refresh-token-missing'],
    source: 'https://github.com/jkroepke/openvpn-auth-oauth2/issues/338',
  },
  {
    text: "(invalid_request) AADSTS900144: The request body must contain the following parameter: 'refresh_token'.",
    expect: ['permanent', 'refresh-token-missing'],
    source: 'https://github.com/microsoftgraph/msgraph-sample-pythondjangoapp/issues/10',
  },

  // Edge timeouts and overloads → transient
  {
    text:
      'API Error: 529 ' +
      // line-length: data-table, a recorded API error body kept verbatim
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded.\nhttps://docs.claude.com/en/api/errors"},"request_id":"req_011CZTEFvft13DajMTp9pp64"}',
    // line-length: end
    expect: ['transient', 'overloaded'],
    source: 'https://github.com/anthropics/claude-code/issues/39745',
  },
  {
    text: 'API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.',
    expect: ['transient', 'overloaded'],
    source: 'https://github.com/anthropics/claude-code/issues/69755',
  },
  {
    text: 'API Error: 524 <!DOCTYPE html>\n<title>newcli.com | 524: A timeout occurred</title>',
    expect: ['transient', 'edge-timeout'],
    source: 'https://github.com/anthropics/claude-code/issues/16737',
  },
  {
    text: 'AxiosError: Request failed with status code 524',
    expect: ['transient', 'edge-timeout'],
    source: 'https://github.com/upleveled/notion-backup/issues/349',
  },
  {
    text: '[API Error: got status: UNAVAILABLE. {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}]',
    expect: ['transient', 'overloaded'],
    source: 'https://github.com/google-gemini/gemini-cli/issues/5191',
  },
  {
    text: '503 - The engine is currently overloaded, please try again later',
    expect: ['transient', 'overloaded'],
    source: 'https://platform.openai.com/docs/guides/error-codes',
  },

  // Rate limits → transient
  {
    text: '429 Rate limit reached for gpt-4o in organization org-uOtiSEwvUnroadaOnJJquBEC on tokens per min (TPM): Limit 30000, Used 29937, Requested 385. Please try again in 644ms.',
    expect: ['transient', 'rate-limited'],
    source: 'https://github.com/BuilderIO/micro-agent/issues/86',
  },
  {
    text: '{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization (c26fc127-ba09-49d3-a086-a2f26380d5e7) of 30,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits."}',
    expect: ['transient', 'rate-limited'],
    source: 'https://github.com/continuedev/continue/issues/9623',
  },
  {
    text: '{"error":{"message":"{\\n  \\"error\\": {\\n    \\"code\\": 429,\\n    \\"message\\": \\"Resource has been exhausted (e.g. check quota).\\",\\n    \\"status\\": \\"RESOURCE_EXHAUSTED\\"\\n  }\\n}\\n","code":429,"status":"Too Many Requests"}}',
    expect: ['transient', 'rate-limited'],
    source: 'https://github.com/continuedev/continue/issues/10560',
  },
  {
    text:
      'Error: 403 {"documentation_url": ' +
      // line-length: data-table, a recorded API error body kept verbatim
      '"https://docs.github.com/en/free-pro-team@latest/rest/overview/resources-in-the-rest-api#secondary-rate-limits", "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}',
    // line-length: end
    expect: ['transient', 'rate-limited'],
    source: 'https://github.com/Orobas42/GitShodanKey/issues/3',
  },
  {
    text: "API rate limit exceeded for xxx.xxx.xxx.xxx. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
    expect: ['transient', 'rate-limited'],
    source: 'https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api',
  },
  {
    text: 'toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
    expect: ['transient', 'rate-limited'],
    source: 'https://docs.docker.com/docker-hub/usage/',
  },

  // 5xx → transient
  {
    text: 'API Error (502 <html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>cloudflare</center>',
    expect: ['transient', 'server-error'],
    source: 'https://github.com/anthropics/claude-code/issues/3919',
  },
  {
    text: '500 - The server had an error while processing your request',
    expect: ['transient', 'server-error'],
    source: 'https://platform.openai.com/docs/guides/error-codes',
  },

  // Connections and streams → transient
  {
    text: 'API Error: The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()',
    expect: ['transient', 'connection-failed'],
    source: 'https://github.com/anthropics/claude-code/issues/60821',
  },
  {
    text: 'Error: read ECONNRESET\n\nTLSWrap.onStreamRead:stream_base_commons:217:20',
    expect: ['transient', 'connection-failed'],
    source: 'https://github.com/raycast/extensions/issues/6731',
  },
  {
    text: 'Error: write EPIPE\n    at afterWriteDispatched (node:internal/stream_base_commons:160:15)',
    expect: ['transient', 'connection-failed'],
    source: 'https://github.com/nodejs/node/issues/48786',
  },
  {
    text: '_Error: request to https://api.github.com/repos/org/repo/pulls failed, reason: connect ETIMEDOUT_',
    expect: ['transient', 'connection-failed'],
    source: 'https://github.com/peter-evans/create-pull-request/issues/733',
  },
  {
    text: 'I often got the error connect ECONNREFUSED 13.250.168.23:443',
    expect: ['transient', 'connection-failed'],
    source: 'https://github.com/octokit/octokit.js/issues/1648',
  },
  {
    text: 'error: RPC failed; curl 92 HTTP/2 stream 0 was not closed cleanly: CANCEL (err 8)\nfatal: the remote end hung up unexpectedly',
    expect: ['transient', 'connection-failed'],
    source: 'https://github.com/desktop/desktop/issues/12186',
  },
  {
    text: 'ERROR: Upstream stream error: aborted | {"code":"ECONNRESET"}',
    expect: ['transient', 'connection-failed'],
    source: 'https://github.com/Wei-Shaw/claude-relay-service/issues/435',
  },
  {
    text: '⚠️ stream error: stream disconnected before completion: stream closed before response.completed; retrying 1/5 in 202ms…',
    expect: ['transient', 'stream-aborted'],
    source: 'https://github.com/Wei-Shaw/claude-relay-service/issues/435',
  },
  {
    text: '[ERROR] LLM stream error {"error":"AbortError: This operation was aborted"}',
    expect: ['transient', 'stream-aborted'],
    source: 'https://github.com/co-l/openfox/issues/358',
  },
  {
    text: 'API Error (Request timed out.) · Retrying in 1 seconds… (attempt 1/10)',
    expect: ['transient', 'timeout'],
    source: 'https://github.com/anthropics/claude-code/issues/3197',
  },
  {
    text: 'Base branch was modified. Review and try the merge again.',
    expect: ['transient', 'concurrent-update'],
    source: 'https://github.com/KnpLabs/php-github-api/issues/497',
  },

  // What the claude-code lane reports from Claude Code 2.1.332 (run against a local server) and the codex CLI.
  {
    text: 'claude reported: API error (connection_failed): API Error: Unable to connect to API (ConnectionRefused); claude exited with code 1; no stderr output',
    expect: ['transient', 'connection-failed'],
    source: 'Claude Code 2.1.332 (Bun fetch error code), test/fixtures/cli-streams/claude/real-2.1.332',
  },
  {
    text: 'claude reported: API error (HTTP 529 overloaded_error): API Error: 529 overloaded_error msg. This is a server-side issue, usually temporary',
    expect: ['transient', 'overloaded'],
    source: 'Claude Code 2.1.332 against a local server',
  },
  {
    text: 'claude reported: API error (HTTP 400 invalid_request_error): API Error: 400 invalid_request_error msg; claude exited with code 1',
    expect: ['permanent', 'client-error'],
    source: 'Claude Code 2.1.332 against a local server: the status read from the failure text',
  },
  {
    text: 'claude reported: [ede_diagnostic] result_type=user last_content_type=tool_result stop_reason=tool_use; claude exited with code 1',
    expect: ['transient', 'agent-turn-ended'],
    source: 'Claude Code 2.1.332 binary: the error_during_execution diagnostic',
  },
  {
    text: 'claude reported: invalid x-api-key; [ede_diagnostic] result_type=assistant last_content_type=text stop_reason=null',
    expect: ['permanent', 'auth-invalid'],
    source: 'a real cause next to the diagnostic wins',
  },
  {
    text: 'codex reported: thread/resume failed: thread 0199a213-81c0-7800-8aa1-bbab2a035a53 already has an active writer (code -32600)',
    expect: ['transient', 'session-busy'],
    source: 'codex 0.171.0 resuming a session an orphaned process still holds (issue 19)',
  },
];

describe('classify(error)', () => {
  it(`has at least 40 real-world strings (${REAL_WORLD.length})`, () => assert.ok(REAL_WORLD.length >= 40));

  for (const { text, expect, source } of REAL_WORLD) {
    it(`${expect[0]} (${expect[1]}): ${text.split('\n')[0]!.slice(0, 70)}`, () => {
      const c = classify(text);
      assert.deepEqual([c.class, c.rule], expect, `from ${source}`);
    });
  }

  describe('structured errors', () => {
    it('reads the cause chain of undici\'s "fetch failed" (SocketError: other side closed, UND_ERR_SOCKET)', () => {
      // Shape from https://github.com/ericc-ch/copilot-api/issues/148 and https://github.com/nodejs/undici/issues/2400
      const cause = Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' });
      assert.equal(classify(new TypeError('fetch failed', { cause })).rule, 'connection-failed');
      assert.equal(classify(new Error('terminated', { cause })).class, 'transient');
    });

    it('reads Node system error codes without a telling message', () => {
      for (const code of ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED']) {
        assert.equal(classify(Object.assign(new Error('request failed'), { code })).rule, 'connection-failed', code);
      }
    });

    it('uses HTTP status and response headers (Octokit RequestError shape) and honours Retry-After', () => {
      const limited = Object.assign(new Error('Too Many Requests'), {
        status: 429,
        response: { status: 429, headers: { 'retry-after': '7' } },
      });
      assert.deepEqual(classify(limited), {
        class: 'transient',
        rule: 'rate-limited',
        description: classify(limited).description,
        retryAfterMs: 7_000,
      });
      assert.equal(classify({ status: 502 }).rule, 'server-error');
      // 404 not_found_error from https://docs.anthropic.com/en/api/errors
      assert.equal(
        classify({
          status: 404,
          error: { type: 'not_found_error', message: 'The requested resource could not be found.' },
        }).class,
        'permanent',
      );
    });

    it("reads the retry window stated in Cloudflare's JSON error body (522 connection_timeout)", () => {
      // https://github.com/anthropics/claude-code/issues/67341
      const body =
        'API Error: 522 {"title":"Error 522: Connection timed out","status":522,"error_code":522,"error_name":"connection_timeout","retryable":true,"retry_after":120}';
      const c = classify(body);
      assert.equal(c.rule, 'edge-timeout');
      assert.equal(c.retryAfterMs, 120_000);
    });

    it('recognizes origin_response_timeout, the error_name Cloudflare gives 524s', () => {
      // https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/error-524/
      assert.equal(classify({ error_code: 524, error_name: 'origin_response_timeout' }).rule, 'edge-timeout');
    });

    it('treats what no rule knows as transient (the bias)', () => {
      assert.deepEqual(
        [classify('something odd happened').class, classify('something odd happened').rule],
        ['transient', 'unclassified'],
      );
    });
  });

  describe('project rules (.switchyard/error-rules.json)', () => {
    let dir: Awaited<ReturnType<typeof makeTempDir>>;
    beforeEach(async () => {
      dir = await makeTempDir();
      await mkdir(join(dir.dir, '.switchyard'));
    });
    afterEach(async () => dir.cleanup());
    const write = (value: unknown) =>
      writeFile(join(dir.dir, '.switchyard', 'error-rules.json'), JSON.stringify(value));

    it('are tried before the built-in rules', async () => {
      await write({
        rules: [
          {
            id: 'flaky-test-db',
            class: 'transient',
            description: 'our test database restarts nightly',
            message: 'database "ci" is starting up',
          },
          { id: 'no-more-502', class: 'permanent', status: [502] },
        ],
      });
      const rules = await loadErrorRules(dir.dir);
      assert.equal(classify('FATAL: database "ci" is starting up', rules).rule, 'flaky-test-db');
      assert.deepEqual(
        [classify({ status: 502 }, rules).class, classify({ status: 502 }, rules).rule],
        ['permanent', 'no-more-502'],
      );
      assert.equal(classify('HttpError: Bad credentials', rules).rule, 'auth-invalid');
    });

    const bad: [unknown, RegExp][] = [
      [{ rules: [{ id: 'x', class: 'maybe', message: 'a' }] }, /rules\.0\.class/],
      [{ rules: [{ id: 'x', class: 'transient' }] }, /at least one of message, status or code/],
      [{ rules: [{ id: 'x', class: 'transient', message: '(' }] }, /rules\.0\.message: Invalid regular expression/],
      [{ rules: [{ id: 'x', class: 'transient', message: 'a', colour: 'red' }] }, /Unrecognized key: "colour"/],
    ];
    for (const [value, error] of bad) {
      it(`name the file and field of a bad rule: ${JSON.stringify(value).slice(0, 60)}`, async () => {
        await write(value);
        await assert.rejects(
          loadErrorRules(dir.dir),
          (e: Error) => e.message.includes('error-rules.json') && error.test(e.message),
        );
      });
    }
  });
});
