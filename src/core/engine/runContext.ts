import type { LaneRegistry } from '../lanes/laneRegistry';
import type { StateStore } from '../backend/stateStore';
import type { SettingSource } from '../store/settingsLayers';
import type { LeaseStore } from '../lease/leaseStore';
import type { JournalStore } from '../journal/journalStore';
import type { GitHubTokenStore } from '../credentials/githubTokenStore';
import type { SecretSource } from '../secrets/secretSource';
import type { ErrorRule } from '../retry/classifyError';
import type { StageGate } from './stageGate';
import type { TraceLog } from '../store/traceLog';

/** What running a task needs from its surroundings. */
export interface RunContext {
  readonly root: string;
  /** Tasks, runs and settings (the backend's state store). */
  readonly store: StateStore;
  readonly leases: LeaseStore;
  readonly journals: JournalStore;
  readonly registry: LaneRegistry;
  /** Identifies this process as the owner of the runs it starts: `host/pid/nonce`. */
  readonly owner: string;
  readonly parentEnv: NodeJS.ProcessEnv;
  /**
   * Resolves the secrets lanes declare (SecretStorage in VS Code, the environment in the CLI, then secret commands).
   */
  readonly secrets: SecretSource;
  /** GitHub tokens by the host they belong to (VS Code's SecretStorage per host, the environment, secret commands). */
  readonly githubTokens: GitHubTokenStore;
  /**
   * Where an effective setting's value comes from (by dotted key) and whether the workspace is trusted: for deciding
   * where a credential may go. Absent: every value counts as the user's. `withheld`: the repository's value that the
   * trust rule left out of the effective settings (untrusted, not plain), when no layer of the user's sets the key.
   */
  settingOrigin?(key: string): Promise<{ source: SettingSource; trusted: boolean; withheld?: unknown }>;
  /**
   * Calls `listener` after the stored state changed, whichever process changed it (the backend's change feed); returns
   * the function that stops it.
   */
  watchState(listener: () => void): () => void;
  /** Admission to the downstream stages under their WIP limits (one per project in this process). */
  readonly stageGate: StageGate;
  /** The scheduler's trace (`.switchyard/trace.jsonl`). */
  readonly trace: TraceLog;
  /** The error classification rules in force (the project's, then the built-in ones); default: built-in. */
  errorRules?(): readonly ErrorRule[];
  /**
   * The command line the pre-push hook in each run's worktree runs; undefined: this CLI when it runs as dist/cli.js;
   * null: no hook.
   */
  readonly hookCommand?: string | null;
  /** Keeps the worktrees of integrated runs instead of removing them (to measure what they cost). */
  readonly keepIntegratedWorktrees?: boolean;
  /** Called after every change this process makes to tasks or runs. */
  onChange?(): void;
  onRunEvent?(runId: string, type: string, body: Record<string, unknown>): void;
}
