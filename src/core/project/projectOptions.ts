import type { BackendSpec } from '../backend/backendSpec';
import type { GitHubTokenStore } from '../credentials/githubTokenStore';
import type { LaneRegistry } from '../lanes/laneRegistry';
import type { SecretSource } from '../secrets/secretSource';

export { GITHUB_COM, normalizeGitHubHost, restCredentialHost } from '../credentials/githubHost';
export type { GitHubTokenStore } from '../credentials/githubTokenStore';
export { LaneRegistry } from '../lanes/laneRegistry';
export type { SecretSource } from '../secrets/secretSource';

/** How `Project.open` opens a project; the module also exports the types and the values its fields take. */
export interface ProjectOptions {
  registry: LaneRegistry;
  parentEnv?: NodeJS.ProcessEnv;
  /** Where lane secrets come from first (VS Code passes SecretStorage); then the environment, then secret commands. */
  secrets?: SecretSource;
  /** GitHub tokens by host asked first (VS Code passes SecretStorage's per-host tokens); then the environment. */
  githubTokens?: GitHubTokenStore;
  /**
   * The command the pre-push hook in each run's worktree runs; default: this CLI when running as dist/cli.js; null: no
   * hook.
   */
  hookCommand?: string | null;
  /**
   * Where state, leases and journals live (default: files under `.switchyard/`); a function gets the repository root.
   */
  backend?: BackendSpec | ((root: string) => BackendSpec | Promise<BackendSpec>);
  /** How this process appears as the owner of its runs (default: the host name). */
  ownerName?: string;
  /**
   * Whether the workspace is trusted (CLI: `switchyard trust`; VS Code: workspace trust). Untrusted (the default), the
   * committed `.switchyard/config.json` may not make Switchyard run a command: those keys are ignored.
   */
  trusted?: boolean | (() => boolean | Promise<boolean>);
  /**
   * Project settings set in the editor (VS Code's settings), by dotted key (`review.enabled`, `wip.RUNNING`,
   * `laneSettings.<lane>.<setting>` for `switchyard.lanes`): they win over the committed config and the local state,
   * and are never stored. A function is asked at each read of the settings, so an edit applies from the next read.
   */
  editorSettings?: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>);
  /** Keeps the worktrees of integrated runs (default: removed once integrated); for measuring what they cost. */
  keepIntegratedWorktrees?: boolean;
}
