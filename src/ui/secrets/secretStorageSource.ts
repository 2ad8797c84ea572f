import type * as vscode from 'vscode';
import type { SecretSource } from '../../core/project/projectOptions';
import { GitHubTokenStorage } from './gitHubTokenStorage';
import { PostgresConnectionSecret } from './postgresConnectionSecret';

/** Where a secret lives in VS Code's SecretStorage (the OS keychain): `switchyard.secret.ANTHROPIC_API_KEY`. */
export function secretStorageKey(secret: string): string {
  return `switchyard.secret.${secret}`;
}

/**
 * Lane secrets from VS Code's SecretStorage, asked first (then the
 * environment, then secret commands). Set with "Switchyard: Set API Key".
 * GitHub tokens are kept apart, per host (`github`), set with "Switchyard: Set
 * GitHub Token": never handed out as a lane secret.
 * Values are read when a run starts, so a key set now applies to the next run.
 */
export class SecretStorageSource implements SecretSource {
  readonly name = 'VS Code secret storage';
  /** The postgres backend's connection string, in the same storage under its own key. */
  readonly postgres: PostgresConnectionSecret;
  /** GitHub tokens by host, in the same storage under their own keys. */
  readonly github: GitHubTokenStorage;

  constructor(private readonly storage: vscode.SecretStorage) {
    this.postgres = new PostgresConnectionSecret(storage);
    this.github = new GitHubTokenStorage(storage);
  }

  async get(_laneId: string, secret: string): Promise<string | undefined> {
    // The GitHub token belongs to a host (`github`), not to a lane.
    if (secret === 'GITHUB_TOKEN') return undefined;
    return (await this.storage.get(secretStorageKey(secret))) || undefined;
  }

  howToSet(laneId: string, secret: string): string {
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
