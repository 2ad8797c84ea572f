import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { clip, oneLine } from '../../../src/core/agent/agentTool';
import { credentialsInEnv, looksLikeCredential } from '../../../src/core/secrets/credentialEnv';
import { Redactor } from '../../../src/core/secrets/redactor';
import { scanKnownSecrets } from '../../../src/core/guards/knownSecretScan';

/** A 164-character key in no vendor's format. */
const KEY = ['one', 'two']
  .map((s) => createHash('sha512').update(s).digest('base64url'))
  .join('')
  .slice(0, 164);

/** Every 8-character window of `secret` that occurs in `text`. */
function windowsIn(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++)
    if (text.includes(secret.slice(i, i + 8))) found.push(secret.slice(i, i + 8));
  return found;
}

describe('Redactor', () => {
  const redactor = (): Redactor => {
    const r = new Redactor();
    r.add('VENDOR_KEY', KEY);
    return r;
  };

  it('redacts whole values, and the pieces a clip or a one-line cut leaves at either edge', () => {
    const r = redactor();
    const output = `start\n${KEY}\n${'y'.repeat(19_950)}`;
    const tail = clip(output, 20_000, 'tail');
    assert.ok(windowsIn(tail, KEY).length > 0, 'the clip really cut the key');
    assert.deepEqual(windowsIn(r.redact(tail), KEY), []);
    assert.match(r.redact(tail), /^\[… \d+ earlier characters not shown\]\n\[redacted part of VENDOR_KEY\]\ny/);
    const line = oneLine(`\`K=${KEY} ./deploy\``, 80);
    assert.equal(r.redact(line), '`K=[redacted part of VENDOR_KEY]…');
    assert.equal(r.redact(`a ${KEY} b`), 'a [redacted VENDOR_KEY] b');
  });

  it('redacts a cut piece whatever marker follows it, also inside a longer message and in JSON values', () => {
    const r = redactor();
    const message = `failed: ${KEY.slice(0, 37)} (+1 more)`;
    assert.equal(r.redact(message), 'failed: [redacted part of VENDOR_KEY] (+1 more)');
    assert.deepEqual(r.redactValue({ out: [`${KEY.slice(-9)}|${KEY.slice(0, 8)}`] }), {
      out: ['[redacted part of VENDOR_KEY]|[redacted part of VENDOR_KEY]'],
    });
    // Fewer than 8 characters of it is not a piece worth hiding (and ordinary text stays).
    assert.equal(r.redact(`x ${KEY.slice(0, 7)} y`), `x ${KEY.slice(0, 7)} y`);
  });

  it('a multi-line secret is redacted line by line, and a JSON-escaped value inside a JSON line', () => {
    const r = new Redactor();
    r.add('PEM', 'line-one-of-the-key\nline-two-of-the-key');
    assert.equal(r.redact('got line-two-of-the-key'), 'got [redacted PEM]');
    r.add('QUOTED', 'pa"ss\\word-1234');
    assert.equal(r.redact(JSON.stringify({ v: 'x pa"ss\\word-1234' })), '{"v":"x [redacted QUOTED]"}');
    assert.equal(r.redact(`https://h/?k=${encodeURIComponent('pa"ss\\word-1234')}`), 'https://h/?k=[redacted QUOTED]');
    assert.deepEqual(
      r.known().map((k) => k.value),
      ['line-one-of-the-key\nline-two-of-the-key', 'line-one-of-the-key', 'line-two-of-the-key', 'pa"ss\\word-1234'],
    );
  });
});

describe('credential names', () => {
  it('names that look like credentials, and names that only talk about one', () => {
    const yes = [
      'DEPLOY_KEY',
      'GH_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'DB_PASSWORD',
      'DB_PASS',
      'MYSQL_PWD',
      'APIKEY',
      'serviceApiKey',
      'NPM_AUTH',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'SENTRY_DSN',
      'OAUTH_BEARER',
      'GHTOKEN',
    ];
    const no = [
      'PATH',
      'HOME',
      'PWD',
      'OLDPWD',
      'NODE_ENV',
      'KEY_FILE',
      'TOKEN_PATH',
      'AUTH_MODE',
      'AUTH_URL',
      'SWITCHYARD_IDEMPOTENCY_KEY',
      'KEYBOARD_LAYOUT',
      'DB_USER',
    ];
    assert.deepEqual(
      yes.filter((n) => !looksLikeCredential(n)),
      [],
    );
    assert.deepEqual(
      no.filter((n) => looksLikeCredential(n)),
      [],
    );
  });

  it('credentials reach a run through the lane env and the env/passEnv settings (prefixes expanded); short values are no credentials', () => {
    const parent = {
      DEPLOY_TOKEN: 'tok-0123456789',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
      AWS_REGION: 'eu-west-1',
      NODE_ENV: 'production',
      SHORT_KEY: 'abc',
    };
    const found = credentialsInEnv(
      { PATH: '/bin', LANE_API_KEY: 'lane-key-12345' },
      { env: ['DEPLOY_TOKEN', 'NODE_ENV', 'SHORT_KEY'], passEnv: ['AWS_*'] },
      parent,
    );
    assert.deepEqual(found, {
      LANE_API_KEY: 'lane-key-12345',
      DEPLOY_TOKEN: 'tok-0123456789',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
    });
  });
});

describe('known-secret scan', () => {
  it('finds a run secret verbatim in added lines, naming file, line and variable, never the value', () => {
    const added = new Map([
      [
        'config/app.txt',
        [
          { line: 3, text: `token=${KEY}` },
          { line: 4, text: KEY.slice(0, 100) },
        ],
      ],
    ]);
    const findings = scanKnownSecrets(added, [{ name: 'VENDOR_KEY', value: KEY }]);
    assert.deepEqual(findings, [
      {
        file: 'config/app.txt',
        line: 3,
        rule: 'known-secret',
        kind: 'the value of VENDOR_KEY, a secret of this run',
        length: 164,
      },
    ]);
    assert.ok(!JSON.stringify(findings).includes(KEY.slice(0, 8)));
  });
});
