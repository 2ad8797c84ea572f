import type * as vscode from 'vscode';
import type { SecretSource } from '../../core/secrets/secretSource';
import { PostgresConnectionSecret } from './postgresConnectionSecret';

/** Where a secret lives in VS Code's SecretStorage (the OS keychain): `switchyard.secret.ANTHROPIC_API_KEY`. */
export function secretStorageKey(secret: string): string {
  return `switchyard.secret.${secret}`;
}

/**
 * Lane secrets from VS Code's SecretStorage, asked first (then the
 * environment, then secret commands). Set with "Switchyard: Set API Key";
 * the GitHub token (`GITHUB_TOKEN`) with "Switchyard: Set GitHub Token".
 * Values are read when a run starts, so a key set now applies to the next run.
 */
export class SecretStorageSource implements SecretSource {
  readonly name = 'VS Code secret storage';
  /** The postgres backend's connection string, in the same storage under its own key. */
  readonly postgres: PostgresConnectionSecret;

  constructor(private readonly storage: vscode.SecretStorage) {
    this.postgres = new PostgresConnectionSecret(storage);
  }

  async get(_laneId: string, secret: string): Promise<string | undefined> {
    return (await this.storage.get(secretStorageKey(secret))) || undefined;
  }

  howToSet(laneId: string, secret: string): string {
    if (secret === 'GITHUB_TOKEN')
      return 'run "Switchyard: Set GitHub Token" to store GITHUB_TOKEN in VS Code\'s secret storage';
    return `run "Switchyard: Set API Key" and pick ${laneId} to store ${secret} in VS Code's secret storage`;
  }

  async has(secret: string): Promise<boolean> {
    return (await this.get('', secret)) !== undefined;
  }

  store(secret: string, value: string): Thenable<void> {
    return this.storage.store(secretStorageKey(secret), value);
  }

  delete(secret: string): Thenable<void> {
    return this.storage.delete(secretStorageKey(secret));
  }
}
