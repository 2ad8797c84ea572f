import type pg from 'pg';
import type { PgConnection } from './pgConnection';
import { z } from 'zod';
import { RetryPolicy, backoffDelayMs } from '../../retry/retryPolicy';
import { CHANGE_CHANNEL } from './pgStateStore';

/** Between reconnects: 100 ms doubling to 5 s, ±20 % jitter. */
const RECONNECT_BACKOFF = RetryPolicy.parse({ initialIntervalMs: 100, maximumIntervalMs: 5_000 });

/** A change notification's payload (see pgStateStore): the project and its new revision. */
const ChangePayload = z.looseObject({ project: z.string() });

/**
 * LISTENs on the change channel on a connection of its own and calls the
 * listeners for this project's notifications. When the connection drops
 * (server restart), it reconnects with the retry policy's backoff (100 ms doubling to 5 s, ±20 %
 * jitter) and
 * calls the listeners once more, since notifications sent meanwhile are lost.
 */
export class PgChangeFeed {
  private readonly listeners = new Set<() => void>();
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  /** Reconnects since the connection was last up (0 while it is up). */
  private retries = 0;

  constructor(
    private readonly db: PgConnection,
    private readonly project: string,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1 && !this.client && !this.retry) void this.connect(false);
    return () => {
      this.listeners.delete(listener);
      if (!this.listeners.size) void this.disconnect();
    };
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.disconnect();
  }

  private async connect(reconnected: boolean): Promise<void> {
    this.retry = undefined;
    if (this.stopped || !this.listeners.size) return;
    const client = this.db.newClient();
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      if (parseChange(message.payload)?.project === this.project) this.emit();
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      this.retries = 0;
      if (reconnected) this.emit();
    } catch {
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.stopped || !this.listeners.size || this.retry) return;
    this.retries += 1;
    this.retry = setTimeout(() => void this.connect(true), backoffDelayMs(RECONNECT_BACKOFF, this.retries));
    this.retry.unref();
  }

  private async disconnect(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** The payload, or undefined for one that is not JSON of the expected shape (ignored). */
function parseChange(payload: string | undefined): z.infer<typeof ChangePayload> | undefined {
  try {
    const parsed = ChangePayload.safeParse(JSON.parse(payload ?? '{}'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
