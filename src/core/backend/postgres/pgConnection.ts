import pg from 'pg';
import { SwitchyardError, errorMessage } from '../../errors';
import { RetryPolicy, backoffDelayMs, defaultSleep } from '../../retry/retryPolicy';
import { isTransientPgError } from './pgErrors';
import { describePgUrl, parsePgUrl, type PgTarget } from './pgUrl';

/**
 * Between attempts while the server is unreachable: 50 ms doubling to 2 s, ±20 % jitter (the run retry policy's
 * backoff).
 */
const RECONNECT_BACKOFF = RetryPolicy.parse({ initialIntervalMs: 50, maximumIntervalMs: 2_000 });
/** SQLSTATEs of a server that answered and refused: bad password or role (28P01, 28000), no such database (3D000). */
const CONFIG_STATES = new Set(['28P01', '28000', '3D000']);

export interface PgConnectionOptions {
  /** How long operations keep retrying while the server is unreachable (restart, failover) before they fail. */
  reconnectBudgetMs?: number;
  /** Connections this process keeps at most. */
  maxConnections?: number;
  /** How long the first connection may take before start fails. */
  connectTimeoutMs?: number;
}

/** What runs a statement: the pool, or a transaction's client. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * A pool of connections to the shared database. Every operation retries
 * with the retry policy's backoff (50 ms doubling to 2 s, ±20 % jitter) while the
 * server is unreachable, up to the reconnect budget; errors never carry the
 * password.
 */
export class PgConnection {
  readonly target: PgTarget;
  private readonly pool: pg.Pool;
  private readonly budgetMs: number;
  private closed = false;

  private constructor(url: string, options: PgConnectionOptions) {
    this.target = parsePgUrl(url);
    this.budgetMs = options.reconnectBudgetMs ?? 60_000;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 8,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      // A connection the network dropped silently is noticed instead of hanging.
      keepAlive: true,
      application_name: 'switchyard',
    });
    // An idle connection the server closed (restart) is dropped by the pool; the next query opens a new one.
    this.pool.on('error', () => undefined);
  }

  /**
   * Connects once, without retries: a wrong URL, bad credentials or an unreachable server fail at start with a clear
   * message.
   */
  static async open(url: string, options: PgConnectionOptions = {}): Promise<PgConnection> {
    const connection = new PgConnection(url, options);
    try {
      const client = await connection.pool.connect();
      client.release();
    } catch (error) {
      await connection.pool.end().catch(() => undefined);
      // The server answered but refused these credentials or this database: a setting to fix, not an outage.
      const refused = CONFIG_STATES.has(String((error as { code?: unknown })?.code));
      throw new SwitchyardError(
        refused ? 'backend-config' : 'backend-unreachable',
        `could not connect to PostgreSQL at ${describePgUrl(connection.target)}: ${connection.clean(error)}`,
      );
    }
    return connection;
  }

  get description(): string {
    return describePgUrl(this.target);
  }

  /** A single statement (its own transaction), retried while the server is unreachable. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    return this.retrying(() => this.pool.query<R>(sql, params));
  }

  /**
   * Runs `fn` in a transaction. A transient failure before COMMIT rolls it
   * back and runs `fn` again from the start; `fn` must not have effects
   * outside the transaction. When the connection drops during COMMIT itself,
   * `committed` (if given) asks the database whether it landed.
   */
  async transaction<T>(
    fn: (client: Queryable) => Promise<T>,
    committed?: (q: Queryable) => Promise<boolean>,
  ): Promise<T> {
    return this.retrying(async () => {
      const client = await this.pool.connect();
      let broken = false;
      // The server may drop the connection between two statements (restart): the next statement fails and is retried.
      const onError = (): void => {
        broken = true;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        try {
          await client.query('COMMIT');
        } catch (error) {
          broken = true;
          if (committed && isTransientPgError(error) && (await this.retrying(() => committed(this.pool))))
            return result;
          throw error;
        }
        return result;
      } catch (error) {
        if (!broken)
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken ? true : undefined);
      }
    });
  }

  /** A client of its own (for LISTEN); the caller ends it. */
  newClient(): pg.Client {
    return new pg.Client({
      connectionString: this.target.url,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      application_name: 'switchyard-listen',
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end().catch(() => undefined);
  }

  /** A message without the password, whatever the driver put in it. */
  clean(error: unknown): string {
    const message = errorMessage(error) || (error as { code?: string })?.code || 'unknown error';
    return this.target.password ? message.split(this.target.password).join('***') : message;
  }

  private async retrying<T>(op: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.budgetMs;
    for (let retry = 1; ; retry++) {
      try {
        return await op();
      } catch (error) {
        if (this.closed || !isTransientPgError(error))
          throw error instanceof SwitchyardError ? error : this.wrap(error);
        const delay = backoffDelayMs(RECONNECT_BACKOFF, retry);
        if (Date.now() + delay > deadline) {
          throw new SwitchyardError(
            'backend-unreachable',
            `PostgreSQL at ${this.description} unreachable for ${Math.round(this.budgetMs / 1000)} s: ${this.clean(error)}`,
            { cause: error },
          );
        }
        await defaultSleep(delay);
      }
    }
  }

  private wrap(error: unknown): Error {
    const cleaned = new Error(`PostgreSQL (${this.description}): ${this.clean(error)}`, { cause: error });
    (cleaned as Error & { code?: unknown }).code = (error as { code?: unknown })?.code;
    return cleaned;
  }
}
