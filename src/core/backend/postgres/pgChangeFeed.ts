import type pg from 'pg';
import type { PgConnection } from './pgConnection';
import { CHANGE_CHANNEL } from './pgStateStore';

/**
 * LISTENs on the change channel on a connection of its own and calls the
 * listeners for this project's notifications. When the connection drops
 * (server restart), it reconnects with backoff (100 ms doubling to 5 s) and
 * calls the listeners once more, since notifications sent meanwhile are lost.
 */
export class PgChangeFeed {
  private readonly listeners = new Set<() => void>();
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private delay = 100;

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
      try {
        if ((JSON.parse(message.payload ?? '{}') as { project?: string }).project !== this.project) return;
      } catch {
        return;
      }
      this.emit();
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      this.delay = 100;
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
    this.retry = setTimeout(() => void this.connect(true), this.delay);
    this.retry.unref();
    this.delay = Math.min(5_000, this.delay * 2);
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
