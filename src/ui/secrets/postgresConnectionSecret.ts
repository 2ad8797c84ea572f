import type * as vscode from 'vscode';

/** Where the PostgreSQL connection string lives in VS Code's SecretStorage (the OS keychain). */
export const POSTGRES_SECRET_KEY = 'switchyard.postgres.connectionString';

/**
 * The connection string of the postgres backend, in VS Code's SecretStorage:
 * never in settings, never logged or shown (it may hold a password). Set with
 * "Switchyard: Set PostgreSQL Connection String".
 */
export class PostgresConnectionSecret {
  constructor(private readonly storage: vscode.SecretStorage) {}

  /** The stored connection string, or undefined when none is stored. */
  async get(): Promise<string | undefined> {
    return (await this.storage.get(POSTGRES_SECRET_KEY))?.trim() || undefined;
  }

  store(value: string): Thenable<void> {
    return this.storage.store(POSTGRES_SECRET_KEY, value);
  }

  delete(): Thenable<void> {
    return this.storage.delete(POSTGRES_SECRET_KEY);
  }

  /** Fires when the stored connection string changes (in this window or another). */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.storage.onDidChange((e) => {
      if (e.key === POSTGRES_SECRET_KEY) listener();
    });
  }
}
