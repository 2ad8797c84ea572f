import type * as vscode from 'vscode';
import { GITHUB_COM } from '../../core/project/projectOptions';
import type { GitHubTokenStore } from '../../core/project/projectOptions';

/** Where a GitHub token for `host` lives in VS Code's SecretStorage: `switchyard.githubToken.github.com`. */
export function gitHubTokenKey(host: string): string {
  return `switchyard.githubToken.${host}`;
}

/** The single token earlier versions stored for every workspace and host; it belonged to github.com. */
const LEGACY_KEY = 'switchyard.secret.GITHUB_TOKEN';

/**
 * GitHub tokens in VS Code's SecretStorage (the OS keychain), one per host, as the GitHub CLI keeps them: the token
 * for github.com is read only for requests to GitHub.com, one for an Enterprise Server only for that server. Set with
 * "Switchyard: Set GitHub Token". A token stored by an earlier version (one for all hosts) moves to github.com on first
 * use.
 */
export class GitHubTokenStorage implements GitHubTokenStore {
  readonly name = 'VS Code secret storage';
  private migrated: Promise<void> | undefined;

  constructor(private readonly storage: vscode.SecretStorage) {}

  async get(host: string): Promise<string | undefined> {
    await this.migrate();
    return (await this.storage.get(gitHubTokenKey(host))) || undefined;
  }

  howToSet(host: string): string {
    return `run "Switchyard: Set GitHub Token" and store a token for ${host}`;
  }

  async has(host: string): Promise<boolean> {
    return (await this.get(host)) !== undefined;
  }

  async store(host: string, token: string): Promise<void> {
    await this.migrate();
    await this.storage.store(gitHubTokenKey(host), token);
  }

  async delete(host: string): Promise<void> {
    await this.migrate();
    await this.storage.delete(gitHubTokenKey(host));
  }

  /** Moves the legacy single token to github.com (unless one is stored there already), once. */
  private migrate(): Promise<void> {
    this.migrated ??= (async () => {
      const legacy = await this.storage.get(LEGACY_KEY);
      if (!legacy) return;
      if (!(await this.storage.get(gitHubTokenKey(GITHUB_COM))))
        await this.storage.store(gitHubTokenKey(GITHUB_COM), legacy);
      await this.storage.delete(LEGACY_KEY);
    })();
    return this.migrated;
  }
}
