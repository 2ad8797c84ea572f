import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import {
  TokenLender,
  type Credential,
  type CredentialSource,
  type TokenLoan,
} from '../../../src/core/credentials/tokenLender';

const MIN = 60_000;

/** A source that holds a refresh token and mints a new 1-hour token per refresh, counting calls. */
function countingSource(now: () => number) {
  const source = {
    refreshToken: 'rt-secret-never-lent',
    refreshes: 0,
    async refresh(): Promise<Credential> {
      source.refreshes++;
      return { token: `access-${source.refreshes}`, expiresAt: now() + 60 * MIN };
    },
  };
  return source;
}

/** A run that borrows: it only ever sees loans. */
async function borrowerRun(lender: TokenLender, uses: number, advance: (ms: number) => void): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < uses; i++) {
    const loan: TokenLoan = await lender.lend();
    assert.ok(loan.remainingMs() > 0, 'a lent token is never expired on receipt');
    seen.push(loan.token);
    advance(20 * MIN);
  }
  return seen;
}

describe('token lending', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => (clock = Date.UTC(2026, 0, 1)));

  it('refreshes a token with 2 minutes left before lending it', async () => {
    const source = countingSource(now);
    const lender = new TokenLender(source, { now, initial: { token: 'old', expiresAt: clock + 2 * MIN } });
    const loan = await lender.lend();
    assert.equal(source.refreshes, 1);
    assert.equal(loan.token, 'access-1');
    assert.equal(loan.remainingMs(), 60 * MIN);
  });

  it('lends without a round trip while more than the threshold is left', async () => {
    const source = countingSource(now);
    const lender = new TokenLender(source, { now, initial: { token: 'fresh', expiresAt: clock + 6 * MIN } });
    assert.equal((await lender.lend()).token, 'fresh');
    assert.equal(source.refreshes, 0);
    clock += 1.5 * MIN; // 4.5 minutes left: below the default 5-minute threshold
    assert.equal((await lender.lend()).token, 'access-1');
  });

  it('a borrower never calls refresh: it holds no refresh token and the lender refreshes for it', async () => {
    const source = countingSource(now);
    const lender = new TokenLender(source, { now });
    const seen = await borrowerRun(lender, 6, (ms) => (clock += ms));
    // 6 uses 20 minutes apart over 2 hours: a refresh only when the token had under 5 minutes left.
    assert.deepEqual(seen, ['access-1', 'access-1', 'access-1', 'access-2', 'access-2', 'access-2']);
    assert.equal(source.refreshes, 2);
    const loan = await lender.lend();
    assert.equal('refresh' in loan, false);
    assert.equal(JSON.stringify(loan).includes(source.refreshToken), false);
    assert.equal(
      Object.values(loan).some((v) => v === source.refreshToken),
      false,
    );
  });

  it('shares one refresh between concurrent borrowers', async () => {
    let release!: () => void;
    let calls = 0;
    const slow: CredentialSource = {
      refresh: () => {
        calls++;
        return new Promise((resolve) => (release = () => resolve({ token: 'shared', expiresAt: clock + 60 * MIN })));
      },
    };
    const lender = new TokenLender(slow, { now });
    const loans = Promise.all([lender.lend(), lender.lend(), lender.lend()]);
    await new Promise((r) => setImmediate(r));
    release();
    assert.deepEqual(
      (await loans).map((l) => l.token),
      ['shared', 'shared', 'shared'],
    );
    assert.equal(calls, 1);
  });

  it('refuses to lend a token that would arrive (nearly) expired, and says so without showing it', async () => {
    const lender = new TokenLender(
      { refresh: async () => ({ token: 'tok-short-lived', expiresAt: clock + 10_000 }) },
      { now },
    );
    await assert.rejects(
      lender.lend(),
      (e: Error) => /valid for only 10 s/.test(e.message) && !e.message.includes('tok-short-lived'),
    );
    const bad = new TokenLender(
      { refresh: async () => ({ token: 'tok-leak', expiresAt: 'soon' }) as unknown as Credential },
      { now },
    );
    await assert.rejects(
      bad.lend(),
      (e: Error) => /not \{token, expiresAt\}/.test(e.message) && !e.message.includes('tok-leak'),
    );
  });

  it('never shows the token when a loan is logged', async () => {
    const lender = new TokenLender(
      { refresh: async () => ({ token: 'ghs_supersecretvalue', expiresAt: clock + 60 * MIN }) },
      { now },
    );
    const loan = await lender.lend();
    for (const shown of [JSON.stringify(loan), inspect(loan), String(loan), `${loan}`]) {
      assert.equal(shown.includes('ghs_supersecretvalue'), false, shown);
    }
    assert.equal(loan.token, 'ghs_supersecretvalue');
  });

  it('reports refreshes to the caller (for the guard log)', async () => {
    const seen: unknown[] = [];
    const lender = new TokenLender(countingSource(now), {
      now,
      initial: { token: 'old', expiresAt: clock + 2 * MIN },
      onRefresh: (i) => seen.push(i),
    });
    await lender.lend();
    assert.deepEqual(seen, [{ ok: true, remainingBeforeMs: 2 * MIN, durationMs: 0 }]);
  });
});
