/**
 * Switchyard's public API for lanes, types only. Another extension gets it with
 *
 *   const api = (await vscode.extensions.getExtension<SwitchyardExtension>('switchyard.switchyard')!.activate()).getAPI(1);
 *   context.subscriptions.push(api.registerLane(myLane));
 *
 * and a CLI lane module (project setting `laneModules`) default-exports a
 * LanePlugin, a list of them, or a function returning either.
 * test/types/publicApi.ts checks that these types match the implementation.
 */
import type { Disposable } from 'vscode';

export interface LaneManifest {
  /** Lower-case letters, digits and dashes, starting with a letter. */
  id: string;
  displayName: string;
  /** Semver, e.g. 1.0.0. */
  version: string;
  /** The lane API version the lane was written for: 1. */
  apiVersion: number;
  kind: 'api' | 'cli' | 'command';
  description?: string;
  /** Attempts per task before it fails (1–20), unless the project overrides it. */
  defaultRetryCap: number;
  /** Default 30 minutes. */
  defaultTimeoutMs?: number;
  /** USD per million tokens. */
  price?: { inputPerMTokUsd: number; outputPerMTokUsd: number };
  modelPrices?: Record<string, { inputPerMTokUsd: number; outputPerMTokUsd: number }>;
  /** `call`: resumes in place from the journal; `run`: a new attempt continuing the lane's own session; `none`. */
  capabilities: { resume: 'none' | 'run' | 'call'; streaming: boolean; tools: boolean };
  /**
   * The lane's settings, documented for users. `type` is what `switchyard lanes set`
   * accepts (`string` keeps the text as typed; `string[]` and `object` are JSON);
   * without it a value is JSON or else text.
   */
  settings?: Record<string, { description: string; required?: boolean; type?: 'string' | 'number' | 'integer' | 'boolean' | 'string[]' | 'object' }>;
  /** Secrets resolved by Switchyard before the lane starts; a missing one fails the run first. */
  requiredSecrets?: string[];
  /** Secrets passed when set, without failing when not. */
  optionalSecrets?: string[];
  /** Extra parent environment variables the lane may read. */
  envAllowlist?: string[];
}

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}

/** Normalized events; a malformed one fails the run with the field named. */
export type LaneEvent =
  | { type: 'text'; text: string }
  | { type: 'log'; stream: 'stdout' | 'stderr'; line: string }
  | { type: 'tool-call'; callId: string; name: string; input: unknown }
  | { type: 'tool-result'; callId: string; output: unknown; isError?: boolean }
  | { type: 'usage'; usage: Usage }
  | { type: 'progress'; message: string; fraction?: number }
  | { type: 'session'; sessionId: string };

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
  /** What the task's earlier runs cost, for a lane's per-task cost cap. */
  readonly taskCostUsd?: number;
}

export interface CallSpec<T> {
  kind: 'model' | 'tool';
  name: string;
  /** Recorded in the journal: JSON, and no secret. */
  input: unknown;
  /** `safe` may run again after an interruption; `never` comes back `uncertain` instead. */
  replay: 'safe' | 'never';
  usage?(output: T): { inputTokens: number; outputTokens: number; costUsd: number } | undefined;
}

export type CallResult<T> =
  | { status: 'ok'; value: T; replayed: boolean; idempotencyKey: string }
  | { status: 'uncertain'; message: string; idempotencyKey: string };

/** The one input contract of every lane. */
export interface LaneRunInput {
  readonly task: LaneTask;
  /** The run's own git worktree. */
  readonly workspaceDir: string;
  /**
   * Built from an allowlist; never the whole parent environment. SWITCHYARD_TASK_SPEC_FILE
   * always names a file holding the whole spec; SWITCHYARD_TASK_SPEC holds it when it fits
   * one variable (64 KiB), otherwise its first part and a note.
   */
  readonly env: Readonly<Record<string, string>>;
  readonly attempt: LaneAttempt;
  /** Verify output or review reasons for a fix attempt. */
  readonly feedback?: string;
  /** `review`: judge the diff in `task.spec` and answer with `result.review`. */
  readonly mode?: 'work' | 'review';
  readonly resume?: { readonly runId: string; readonly sessionId?: string; readonly salvageBranch?: string };
  readonly secrets: Readonly<Record<string, string>>;
  readonly settings: Readonly<Record<string, unknown>>;
  /** Aborted on cancel and timeout. */
  readonly signal: AbortSignal;
  emit(event: LaneEvent): void;
  call<T>(spec: CallSpec<T>, fn: (ctx: { idempotencyKey: string }) => Promise<T>): Promise<CallResult<T>>;
}

/** The one output contract: the host adds the worktree diff. */
export interface LaneResult {
  status: 'succeeded' | 'failed';
  summary?: string;
  /** The real last error, e.g. "pytest exit 1 in tests/test_user.py::test_create". */
  failureReason?: string;
  /** When the lane knows better than the default `lane-exit`. */
  failureCode?: 'lane-exit' | 'lane-misconfigured' | 'budget-exceeded' | 'provider-rejected' | 'permission-denied';
  usage?: Usage;
  sessionId?: string;
  review?: { verdict: 'approve' | 'changes-requested'; reasons: string[] };
}

export interface LanePlugin {
  readonly manifest: LaneManifest;
  run(input: LaneRunInput): Promise<LaneResult>;
}

/** Version 1 of the API. */
export interface SwitchyardAPI {
  /** Validates the manifest (strict) and registers the lane; disposing removes it. Throws on an invalid manifest or a duplicate id. */
  registerLane(plugin: LanePlugin): Disposable;
  /** The registered lanes' manifests, validated, sorted by id. */
  lanes(): LaneManifest[];
}

/** What Switchyard's `activate()` returns. */
export interface SwitchyardExtension {
  /** Any version but 1 throws, listing the supported versions. */
  getAPI(version: 1): SwitchyardAPI;
}
