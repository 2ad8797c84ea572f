import type { Disposable } from '../../model/disposable';
import type { Backend } from '../backend';
import type { BackendSpec } from '../backendSpec';
import { PgChangeFeed } from './pgChangeFeed';
import { PgConnection, type PgConnectionOptions } from './pgConnection';
import { PgJournalStore } from './pgJournalStore';
import { PgLeaseStore } from './pgLeaseStore';
import { applyMigrations } from './pgMigrations';
import { PgStateStore } from './pgStateStore';

/**
 * The team backend: state, leases and journals in one PostgreSQL database
 * that several windows and headless workers (on any machine) share. Opening
 * it connects (a wrong URL or an unreachable server fails here, never
 * falling back to files), applies pending schema migrations and creates the
 * project's row.
 */
export class PostgresBackend implements Backend {
  readonly kind = 'postgres' as const;
  readonly description: string;
  readonly state: PgStateStore;
  readonly leases: PgLeaseStore;
  readonly journals: PgJournalStore;
  private readonly feed: PgChangeFeed;

  private constructor(
    readonly db: PgConnection,
    readonly project: string,
  ) {
    this.description = `PostgreSQL ${db.description}, project ${project}`;
    this.state = new PgStateStore(db, project);
    this.leases = new PgLeaseStore(db, project);
    this.journals = new PgJournalStore(db, project);
    this.feed = new PgChangeFeed(db, project);
  }

  static async open(
    spec: Extract<BackendSpec, { kind: 'postgres' }>,
    options: PgConnectionOptions = {},
  ): Promise<PostgresBackend> {
    const db = await PgConnection.open(spec.url, options);
    try {
      await applyMigrations(db);
      const backend = new PostgresBackend(db, spec.project);
      await backend.state.ensureProject();
      return backend;
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  watch(listener: () => void): Disposable {
    return { dispose: this.feed.subscribe(listener) };
  }

  async close(): Promise<void> {
    await this.feed.close();
    await this.db.close();
  }
}
