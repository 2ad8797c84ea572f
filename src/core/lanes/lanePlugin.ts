import type { LaneEventInput } from '../model/laneEvent';
import type { LaneManifestInput } from '../model/laneManifest';
import type { LaneResultInput } from '../model/laneResult';
import type { CallResult, CallSpec } from '../journal/durableCalls';

/** The task as a lane sees it: what to do, not how Switchyard tracks it. */
export interface LaneTask {
  readonly id: string;
  readonly title: string;
  readonly spec: string;
  readonly files: readonly string[];
  readonly acceptance?: string;
}

export interface LaneAttempt {
  readonly runId: string;
  readonly attempt: number;
  readonly parentRunId?: string;
  readonly retryReason?: string;
  /** What the task's earlier runs cost (USD), for a per-task cost cap; absent when the host does not say. */
  readonly taskCostUsd?: number;
}

/** The one input contract of every lane. */
export interface LaneRunInput {
  readonly task: LaneTask;
  /** The run's own git worktree; the lane works only here. */
  readonly workspaceDir: string;
  /**
   * Built by Switchyard from an allowlist; never the whole parent environment.
   * SWITCHYARD_TASK_SPEC_FILE always names a file (in the run's folder, outside
   * the worktree) holding the whole spec; SWITCHYARD_TASK_SPEC holds it too
   * when it fits one variable (64 KiB), otherwise its first part and a note.
   */
  readonly env: Readonly<Record<string, string>>;
  readonly attempt: LaneAttempt;
  /**
   * What this attempt should know from the previous one: the failed
   * acceptance command's output, the review's reasons, or the files that
   * conflicted with the target branch. The worktree of a fix attempt starts
   * from the previous attempt's commit. The command lane passes it as
   * `SWITCHYARD_FEEDBACK`.
   */
  readonly feedback?: string;
  /**
   * `review`: an independent review of another run's change. The task's spec
   * then holds the original spec, the diff and the gate evidence (never the
   * worker's transcript); the lane answers with `review` in its result.
   * Absent means `work`.
   */
  readonly mode?: 'work' | 'review';
  /**
   * Set when this attempt follows an earlier run of the task:
   * - `sessionId`: the lane's own session of that run (for lanes that resume
   *   at run level), and `sessionCwd`, the directory it began in. A CLI's
   *   session names that directory's paths in its history: resume it only
   *   when `workspaceDir` is that directory, else start a fresh session with
   *   the earlier work as context;
   * - `start`: where this worktree starts. `earlier-work`: from the earlier
   *   run's work (its salvaged work on `salvageBranch`, or its commit, which
   *   this attempt fixes); `target-head`: from the target branch's current
   *   head, `base`: from the task's base commit; in those two the earlier
   *   work is NOT in the worktree, its branch `workBranch` (and its diff) is
   *   context only. Absent: as `earlier-work` when `salvageBranch` is set.
   */
  readonly resume?: {
    readonly runId: string;
    readonly sessionId?: string;
    readonly sessionCwd?: string;
    readonly salvageBranch?: string;
    readonly start?: 'earlier-work' | 'target-head' | 'base';
    readonly workBranch?: string;
  };
  /**
   * The secrets the manifest names in `requiredSecrets` (and those of
   * `optionalSecrets` that are set), resolved by
   * Switchyard before the lane starts. They are not in `env` unless the lane
   * puts them there, and every output of the run is redacted of them.
   */
  readonly secrets: Readonly<Record<string, string>>;
  /** The lane's settings for this project, as configured by the user. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Aborted on cancel and on timeout; a lane must stop promptly. */
  readonly signal: AbortSignal;
  /** Reports a normalized event; malformed events fail the run. */
  emit(event: LaneEventInput): void;
  /**
   * Runs a model or tool call durably: its intent and outcome go to the run's
   * journal. After an interruption the run resumes (lanes whose manifest says
   * `resume: 'call'`), completed calls are read back instead of executed, and an
   * interrupted `never` call comes back as `uncertain` with its idempotency key.
   */
  call<T>(spec: CallSpec<T>, fn: (ctx: { idempotencyKey: string }) => Promise<T>): Promise<CallResult<T>>;
}

/** What a lane's readiness check gets: the lane's settings and what it may look at, never a secret's value. */
export interface LaneReadinessInput {
  /** The lane's settings for this project, as configured by the user. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** The names of the manifest's secrets that are set (the values stay with Switchyard). */
  readonly secretsSet: readonly string[];
  /** The environment the lane would start in (PATH, HOME); from an allowlist, like a run's. */
  readonly env: Readonly<Record<string, string>>;
  /** Aborted when the check takes too long (a few seconds); a check must be cheap. */
  readonly signal: AbortSignal;
}

/**
 * How to make an unready lane ready: a setting of the lane (`switchyard.lanes` → lane → setting, or `switchyard lanes
 * set`), a secret (Set API Key, or the environment), a command the user runs in a terminal they see (`terminal`: e.g.
 * signing in to a CLI; `argv` is the program and its arguments, started without a shell, and `label` names the action,
 * e.g. "Sign In"), or a step outside Switchyard (install a CLI, start a server) described in `hint`.
 */
export type LaneFix =
  | { readonly kind: 'setting'; readonly setting: string }
  | { readonly kind: 'secret'; readonly secret: string }
  | { readonly kind: 'terminal'; readonly label: string; readonly argv: readonly string[] }
  | { readonly kind: 'external'; readonly hint: string };

/** One thing that keeps a lane from running: one sentence naming it, and the ways to fix it (the first one first). */
export interface LaneProblem {
  readonly reason: string;
  readonly fixes?: readonly LaneFix[];
}

/**
 * Whether a lane can run now. Not ready: `problems` lists everything found at once (a check may leave it out when
 * it found one thing); `reason` and `fix` are the first problem's sentence and first fix. A reason names what is
 * missing and the fix.
 */
export type LaneReadiness =
  | { readonly ready: true; readonly detail?: string }
  | {
      readonly ready: false;
      readonly reason: string;
      readonly fix?: LaneFix;
      readonly problems?: readonly LaneProblem[];
    };

/** A lane plugin: a manifest and one `run` function. */
export interface LanePlugin {
  readonly manifest: LaneManifestInput;
  run(input: LaneRunInput): Promise<LaneResultInput>;
  /**
   * Optional: a cheap check (binary on PATH, server reachable, CLI signed in) of whether the lane can run as
   * configured. Switchyard checks the manifest's required settings and secrets itself, runs this check once the
   * required settings are there (a missing secret does not stop it), lists every problem found, and caches the answer
   * for a short while. A lane without it counts as ready once those are set.
   */
  readiness?(input: LaneReadinessInput): Promise<LaneReadiness>;
}

export type { Disposable } from '../model/disposable';
