import { inspect } from 'node:util';
import { z } from 'zod';
import { SwitchyardError, errorMessage } from '../errors';
import { describeZodError } from '../model/zodIssues';

/** A short-lived access token and when it expires (epoch ms). What a credential source returns. */
export const Credential = z.object({ token: z.string().min(1), expiresAt: z.number().int().positive() }).strict();
export type Credential = z.infer<typeof Credential>;

/**
 * Where tokens come from. The source alone holds the refresh token (or the
 * app key, or the login session); only the lender calls `refresh`.
 */
export interface CredentialSource {
  refresh(): Promise<Credential>;
}

/** What a run borrows: the token and its expiry. No refresh token, nothing to refresh with. */
export interface TokenLoan {
  readonly token: string;
  readonly expiresAt: number;
  remainingMs(now?: number): number;
}

export interface TokenLenderOptions {
  /** Refresh before lending when less than this is left (default 5 minutes). */
  thresholdMs?: number;
  /** A freshly refreshed token must be valid at least this long, or lending fails (default 30 s). */
  minimumValidityMs?: number;
  /** A token the source already handed out, if any. */
  initial?: Credential;
  now?: () => number;
  onRefresh?(info: { ok: boolean; remainingBeforeMs: number | undefined; durationMs: number; error?: string }): void;
}

/**
 * Lends short-lived tokens to runs. A token with less than `thresholdMs`
 * left is refreshed before it is lent (concurrent borrowers share one
 * refresh); otherwise lending is a lookup, no round trip. Borrowers get a
 * loan object that cannot refresh, so a token can no longer arrive expired.
 */
export class TokenLender {
  private credential: Credential | undefined;
  private refreshing: Promise<Credential> | undefined;
  private readonly thresholdMs: number;
  private readonly minimumValidityMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: CredentialSource,
    private readonly options: TokenLenderOptions = {},
  ) {
    this.thresholdMs = options.thresholdMs ?? 5 * 60_000;
    this.minimumValidityMs = options.minimumValidityMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.credential = options.initial ? parseCredential(options.initial) : undefined;
  }

  async lend(): Promise<TokenLoan> {
    const current = this.credential;
    if (current && current.expiresAt - this.now() >= this.thresholdMs) return makeLoan(current, this.now);
    const fresh = await (this.refreshing ??= this.refresh(current).finally(() => (this.refreshing = undefined)));
    return makeLoan(fresh, this.now);
  }

  private async refresh(before: Credential | undefined): Promise<Credential> {
    const started = this.now();
    const remainingBeforeMs = before ? before.expiresAt - started : undefined;
    try {
      const fresh = parseCredential(await this.source.refresh());
      const left = fresh.expiresAt - this.now();
      if (left < this.minimumValidityMs) {
        throw new SwitchyardError(
          'invalid-input',
          `the credential source returned a token valid for only ${Math.round(left / 1000)} s (at least ${Math.round(this.minimumValidityMs / 1000)} s needed)`,
        );
      }
      this.credential = fresh;
      this.options.onRefresh?.({ ok: true, remainingBeforeMs, durationMs: this.now() - started });
      return fresh;
    } catch (error) {
      this.options.onRefresh?.({
        ok: false,
        remainingBeforeMs,
        durationMs: this.now() - started,
        error: errorMessage(error),
      });
      throw error;
    }
  }
}

function parseCredential(value: unknown): Credential {
  const parsed = Credential.safeParse(value);
  if (!parsed.success) {
    // Never echo the value: it holds the token.
    const problem = describeZodError(parsed.error).replace(/"[^"]*"/g, '"…"');
    throw new SwitchyardError(
      'invalid-input',
      `the credential source returned something that is not {token, expiresAt}: ${problem}`,
    );
  }
  return parsed.data;
}

function makeLoan(credential: Credential, now: () => number): TokenLoan {
  const loan: TokenLoan & { toJSON(): unknown; toString(): string } = {
    token: credential.token,
    expiresAt: credential.expiresAt,
    remainingMs: (at = now()) => credential.expiresAt - at,
    // A loan that ends up in a log or an error shows no token.
    toJSON: () => ({ token: '[REDACTED]', expiresAt: new Date(credential.expiresAt).toISOString() }),
    toString: () => `[token loan, expires ${new Date(credential.expiresAt).toISOString()}]`,
  };
  Object.defineProperty(loan, 'token', { enumerable: false, value: credential.token });
  Object.defineProperty(loan, inspect.custom, { enumerable: false, value: () => loan.toString() });
  return Object.freeze(loan);
}
