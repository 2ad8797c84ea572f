/**
 * The built-in error classification table. Rules are tried in order and the
 * first match wins; a project's own rules (`.switchyard/error-rules.json`)
 * are tried before these. What matches nothing is `transient`: a false
 * transient costs a few seconds of backoff, a missed one costs a human.
 *
 * Order matters: refusals that name a policy or an exhausted budget come
 * first (they often mention rate limits or checks too), then "CI is still
 * running", then the transient families, then the generic 4xx fallback.
 */
export type ErrorClass = 'transient' | 'ci-pending' | 'permanent';

/** All given criteria must hold; a rule with several matchers matches when any of them does. */
export interface ErrorMatcher {
  status?: readonly number[] | { min: number; max: number };
  code?: readonly string[];
  message?: RegExp;
}

export interface ErrorRule {
  id: string;
  class: ErrorClass;
  description: string;
  match: ErrorMatcher | readonly ErrorMatcher[];
}

const NETWORK_CODES = [
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
  // Bun's fetch (the runtime of the Claude Code binary): "Unable to connect to API (ConnectionRefused)".
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
];

export const BUILTIN_ERROR_RULES: readonly ErrorRule[] = [
  // Policy refusals and exhausted budgets: waiting does not help.
  {
    id: 'pull-request-required',
    class: 'permanent',
    description: 'the branch only accepts changes through a pull request',
    match: { message: /Changes must be made through a pull request/i },
  },
  {
    id: 'required-check-failing',
    class: 'permanent',
    description: 'a required status check failed: fix the change, do not retry it',
    match: {
      message:
        /Required status check\s+\\?".+?\\?"\s+(?:is failing|has failed|failed)|required status checks? (?:have|has) failed|\d+ of \d+ required status checks? (?:are|is) failing/i,
    },
  },
  {
    id: 'signature-required',
    class: 'permanent',
    description: 'commits must be signed',
    match: {
      message:
        /Commits must have (?:valid|verified) signatures|commit signature (?:is )?(?:missing|required)|unsigned commits? (?:are|is) not allowed/i,
    },
  },
  {
    id: 'quota-exhausted',
    class: 'permanent',
    description: 'the account is out of quota or credit (billing), not rate limited',
    match: [
      { code: ['insufficient_quota'] },
      {
        message:
          /insufficient_quota|exceeded your current quota|check your plan and billing|credit balance is too low/i,
      },
    ],
  },
  {
    id: 'context-too-long',
    class: 'permanent',
    description: 'the request is larger than the model accepts; the same input always fails',
    match: [
      { code: ['context_length_exceeded'] },
      {
        message:
          /prompt is too long|maximum context length|context_length_exceeded|Request too large for|reduce the length of the messages/i,
      },
    ],
  },
  {
    id: 'input-too-large',
    class: 'permanent',
    description:
      'a process could not start: its arguments and environment are larger than the system allows (E2BIG); the same input always fails',
    match: [{ code: ['E2BIG'] }, { message: /\bE2BIG\b|Argument list too long/i }],
  },
  {
    id: 'auth-invalid',
    class: 'permanent',
    description: 'invalid or missing API key or credentials',
    match: {
      message:
        /invalid[ _-]?api[ _-]?key|Incorrect API key|invalid x-api-key|authentication_error|Bad credentials|API key not valid|Invalid Authentication|Could not resolve authentication method/i,
    },
  },
  // A lane that could not start or was set up wrong: the same input fails the same way until a human fixes the
  // setting, the key or the installation.
  {
    id: 'lane-misconfigured',
    class: 'permanent',
    description: "a lane setting is missing or invalid: fix the lane's settings (switchyard.lanes)",
    match: { message: /\bis misconfigured\b|\bneeds an? (?:non-empty )?"[\w.-]+" setting\b/i },
  },
  {
    id: 'key-missing',
    class: 'permanent',
    description: 'an API key or token the agent needs is not set: set it (Set API Key, or the environment)',
    match: {
      message:
        /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API_KEY|KEY|TOKEN)\b[^\n]{0,40}?\b(?:is not set|not set|is missing|missing|is required|is empty|unset)\b|\b(?:missing|no) api[ _-]?key\b|\bapi[ _-]?key (?:is )?(?:not set|missing|required)\b/i,
    },
  },
  {
    id: 'not-logged-in',
    class: 'permanent',
    description: 'the agent CLI is not signed in: run its login command (e.g. `codex login`) or set its API key',
    match: {
      message:
        /\bnot (?:logged|signed) in\b|\bplease (?:log|sign) ?in\b|\blog ?in required\b|\bnot authenticated\b|\bunauthenticated\b|\brun \W?[\w-]+ (?:auth )?login\b/i,
    },
  },
  {
    id: 'unknown-option',
    class: 'permanent',
    description: "the agent CLI rejected an option or argument: fix the lane's extraArgs or update the CLI",
    match: {
      message:
        /\bunknown (?:option|flag|argument|command)\b|\bunrecognized (?:option|arguments?)\b|\bunexpected argument\b|\binvalid option\b|\bunknown (?:long |short )?switch\b/i,
    },
  },
  {
    id: 'command-not-found',
    class: 'permanent',
    description: "the lane's command or CLI is not installed or not on PATH: install it or fix the lane's setting",
    match: [
      { code: ['ENOENT'], message: /\bspawn\b/i },
      {
        message:
          /command not found|\bsh: (?:\d+: )?\S+: not found|is not recognized as an internal or external command|\bexit code 127\b|\bspawn \S+ ENOENT\b|\bcannot find the \S+ CLI\b/i,
      },
    ],
  },
  {
    id: 'refresh-token-missing',
    class: 'permanent',
    description: 'no usable refresh token: a human has to sign in again',
    match: {
      message:
        /\b(?:no|missing)\b[^.\n]{0,30}refresh[ _-]?token|refresh[ _-]?token\b[^.\n]{0,40}\b(?:missing|not set|not found|expired|revoked|invalid)|Missing required parameter: refresh_token|parameter: 'refresh_token'|invalid_grant|Token has been expired or revoked/i,
    },
  },
  {
    id: 'permission-denied',
    class: 'permanent',
    description: 'the credentials lack permission for this operation',
    match: {
      message:
        /Resource not accessible by (?:integration|personal access token)|Permission denied \(publickey|Permission to \S+ denied|not authorized to push|must have (?:admin|push|write) (?:rights|access)|permission_error|insufficient (?:scope|permission)s?|The requested URL returned error: 40[13]\b/i,
    },
  },
  {
    id: 'push-rejected',
    class: 'permanent',
    description: 'the push was rejected as non-fast-forward: rebase or merge first (a new input)',
    match: { message: /\(non-fast-forward\)|\(fetch first\)|Updates were rejected because/i },
  },
  {
    id: 'merge-conflict',
    class: 'permanent',
    description: 'a merge conflict needs resolving',
    match: { message: /^CONFLICT \(|Automatic merge failed|Merge conflict in /im },
  },
  {
    id: 'guard-blocked',
    class: 'permanent',
    description: "Switchyard's pre-push guard refused the push (policy violation)",
    match: { message: /switchyard pre-push guard: push blocked/ },
  },
  {
    id: 'repository-not-found',
    class: 'permanent',
    description: 'the repository or ref does not exist (or is not visible to these credentials)',
    match: { message: /Repository not found|repository '[^']*' not found|couldn't find remote ref/i },
  },

  // CI still running: wait, then try again.
  {
    id: 'required-check-expected',
    class: 'ci-pending',
    description: 'a required status check has not reported yet (GitHub "… is expected", singular or plural)',
    match: {
      message:
        /Required status check\s+\\?".+?\\?"\s+is expected|\d+ of \d+ required status checks? (?:are|is) expected|required status checks? (?:are|is) expected|Waiting for status to be reported|is waiting for results from/i,
    },
  },

  // Transient: the same request may well succeed later.
  {
    id: 'edge-timeout',
    class: 'transient',
    description: 'the CDN edge gave up waiting for the origin (Cloudflare 522/524, origin_response_timeout)',
    match: [
      { status: [522, 524] },
      { message: /\b52[24]\b|origin_response_timeout|A timeout occurred|connection_timeout/i },
    ],
  },
  {
    id: 'overloaded',
    class: 'transient',
    description: 'the service is overloaded (Anthropic 529 overloaded_error, "model is overloaded")',
    match: [{ status: [529] }, { code: ['overloaded_error'] }, { message: /overloaded|high demand/i }],
  },
  {
    id: 'rate-limited',
    class: 'transient',
    description: '429 / Too Many Requests / rate or secondary rate limits: wait (honouring Retry-After) and retry',
    match: [
      { status: [429] },
      { code: ['rate_limit_exceeded', 'rate_limit_error', 'RESOURCE_EXHAUSTED'] },
      {
        message:
          /Too Many Requests|rate[ _-]?limit|RESOURCE_EXHAUSTED|Resource (?:has been )?exhausted|Slow Down|toomanyrequests|Throttl/i,
      },
    ],
  },
  {
    id: 'server-error',
    class: 'transient',
    description: 'a 5xx server error',
    match: [
      { status: { min: 500, max: 599 } },
      { code: ['api_error', 'server_error'] },
      {
        message:
          /(?:status(?: code)?|HTTP(?:\/[\d.]+)?|API Error|error(?: code)?|returned error)[\s:(]*5\d\d\b|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out|The server had an error/i,
      },
    ],
  },
  {
    id: 'connection-failed',
    class: 'transient',
    description:
      'the connection was reset, refused, dropped or never made (ECONNRESET, ECONNREFUSED, EPIPE, ETIMEDOUT, socket closed)',
    match: [
      { code: NETWORK_CODES },
      {
        // line-length: data-table, one regex of alternatives (error codes and messages) kept whole to read and extend
        message:
          /(?<![A-Z])(?:ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_[A-Z]+(?:_[A-Z]+)*)(?![A-Z])|\bConnection(?:Refused|Closed)\b|\bFailedToOpenSocket\b|socket hang up|connection (?:reset|refused|closed|error)|other side closed|closed unexpectedly|socket (?:closed|disconnected)|Could not resolve host|Failed to connect to|remote end hung up unexpectedly|RPC failed|early EOF|not closed cleanly|network (?:error|is unreachable)|fetch failed/i,
        // line-length: end
      },
    ],
  },
  {
    id: 'stream-aborted',
    class: 'transient',
    description: 'a response stream ended early (aborted, premature close, disconnected)',
    match: {
      message:
        /stream (?:was )?aborted|\baborted\b|premature close|stream disconnected|stream closed|\bterminated\b|incomplete chunked|unexpected end of (?:JSON|stream|file)/i,
    },
  },
  {
    id: 'timeout',
    class: 'transient',
    description: 'the request timed out',
    match: [{ status: [408] }, { message: /timed? ?out|deadline exceeded/i }],
  },
  // Codex: `thread/resume failed: thread … already has an active writer (code -32600)`. Another process (a leftover
  // agent of a dead owner) still holds the session; once it is gone, which the new owner sees to, the resume works.
  {
    id: 'session-busy',
    class: 'transient',
    description: 'the agent session is still held by another process (codex "already has an active writer")',
    match: { message: /already has an active writer/i },
  },
  {
    id: 'concurrent-update',
    class: 'transient',
    description: 'someone else changed the branch or holds a lock meanwhile: try again',
    match: {
      message:
        /Base branch was modified|Head branch was modified|cannot lock ref|index\.lock'?: File exists|Unable to create '[^']*\.lock'/i,
    },
  },

  // Any other 4xx: the request itself is wrong.
  {
    id: 'client-error',
    class: 'permanent',
    description: 'a 4xx answer other than 408/429: the request itself is refused',
    match: { status: { min: 400, max: 499 } },
  },

  // Claude Code's `[ede_diagnostic] result_type=… last_content_type=… stop_reason=…`: its note that a turn ended
  // without a final answer (error_during_execution). It names no cause, so a real cause found by an earlier rule wins;
  // alone, it is an interrupted execution, which a new attempt (resuming the session) may well finish.
  {
    id: 'agent-turn-ended',
    class: 'transient',
    description: 'Claude Code ended its turn without a final answer ([ede_diagnostic]) and named no other cause',
    match: { message: /\[ede_diagnostic\]/ },
  },
];

/** What matches no rule. */
export const DEFAULT_RULE: ErrorRule = {
  id: 'unclassified',
  class: 'transient',
  description: 'no rule matched: treated as transient (retry is cheap, a missed transient is not)',
  match: [],
};
