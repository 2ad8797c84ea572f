// Generated from src/api.ts by `npm run build:api` (scripts/build-api.mjs): do not edit by hand.
// A test fails when this file is stale.
/**
 * Switchyard's public lane API, version 1: the lane contract, the API lanes'
 * toolkit and the supervised process starter. This file is the contract:
 * its types are plain TypeScript, checked against the schemas Switchyard
 * parses them with (test/types/publicApi.ts), and switchyard.d.ts is its
 * declaration output (`npm run build:api`; a test fails when it is stale).
 * The built-in lanes under plugins/ import only this module.
 *
 * A third-party lane takes the types from switchyard.d.ts and the values
 * (`runApiLane`, `startProcessGroup`, …) from Switchyard at run time:
 *
 * - an extension gets them on the API object, and contributes
 *   `"switchyard.lanes": [{ "id": "my-lane" }]` in its package.json so that
 *   Switchyard activates it before it lists, routes to or runs that lane:
 *
 *     const switchyard = vscode.extensions.getExtension<SwitchyardExtension>('switchyard.switchyard')!;
 *     const api = (await switchyard.activate()).getAPI(1);
 *     context.subscriptions.push(api.registerLane(myLane(api)));
 *
 * - a CLI lane module (project setting `laneModules`) default-exports a
 *   LanePlugin, a list of them, or a function that is called with the
 *   LaneToolkit and returns either.
 *
 * The declaration needs the type packages `zod` (4, for the one schema a lane
 * extends: ApiLaneSettings) and `ai` (the AI SDK, for LanguageModel) and
 * `@types/node`.
 */
import type { LanguageModel } from 'ai';
import type { Readable } from 'node:stream';
import type { z } from 'zod';

/** The lane API version this file describes. */
export declare const LANE_API_VERSION: 1;

/** What `registerLane` returns; a `vscode.Disposable` in an extension. */
export interface Disposable {
  dispose(): void;
}

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
  price?: PriceTable;
  modelPrices?: Record<string, PriceTable>;
  /** Context windows in tokens by model id or id prefix; `contextWindow` covers the rest (else 32768). */
  modelContextWindows?: Record<string, number>;
  contextWindow?: number;
  /** `call`: resumes in place from the journal; `run`: a new attempt continuing the lane's own session; `none`. */
  capabilities: {
    resume: 'none' | 'run' | 'call';
    streaming: boolean;
    tools: boolean;
  };
  /**
   * The lane's settings, documented for users. `type` is what `switchyard lanes set`
   * accepts (`string` keeps the text as typed; `string[]` and `object` are JSON);
   * without it a value is JSON or else text. `class` is what a value can make Switchyard do: in an
   * untrusted workspace only `plain` settings from the repository apply; without one the setting is
   * treated like one that executes.
   */
  settings?: Record<
    string,
    {
      description: string;
      required?: boolean;
      type?: LaneSettingType;
      class?: SettingClass;
    }
  >;
  /** Secrets resolved by Switchyard before the lane starts; a missing one fails the run first. */
  requiredSecrets?: string[];
  /** Secrets passed when set, without failing when not. */
  optionalSecrets?: string[];
  /** Extra parent environment variables the lane may read. */
  envAllowlist?: string[];
}

export interface Usage {
  /** The whole prompt, cache reads and writes included. */
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** The prompt tokens read from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** The prompt tokens written to the provider's prompt cache. */
  cacheWriteTokens?: number;
}

/** Normalized events; a malformed one fails the run with the field named. */
export type LaneEvent =
  | {
      type: 'text';
      text: string;
    }
  | {
      type: 'log';
      stream: 'stdout' | 'stderr';
      line: string;
    }
  | {
      type: 'tool-call';
      callId: string;
      name: string;
      input: unknown;
    }
  | {
      type: 'tool-result';
      callId: string;
      output: unknown;
      isError?: boolean;
    }
  | {
      type: 'usage';
      usage: Usage;
    }
  | {
      type: 'progress';
      message: string;
      fraction?: number;
    }
  | {
      type: 'session';
      sessionId: string;
    };

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
  usage?(output: T):
    | {
        inputTokens: number;
        outputTokens: number;
        costUsd: number;
        cacheReadTokens?: number;
        cacheWriteTokens?: number;
      }
    | undefined;
}

export type CallResult<T> =
  | {
      status: 'ok';
      value: T;
      replayed: boolean;
      idempotencyKey: string;
    }
  | {
      status: 'uncertain';
      message: string;
      idempotencyKey: string;
    };

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
  /**
   * The earlier run this attempt follows. Resume `sessionId` only when `workspaceDir` is `sessionCwd` (the
   * directory it began in). `start`: `earlier-work` (the worktree holds the earlier work), `target-head` or
   * `base` (it does not: `workBranch` is context only).
   */
  readonly resume?: {
    readonly runId: string;
    readonly sessionId?: string;
    readonly sessionCwd?: string;
    readonly salvageBranch?: string;
    readonly start?: 'earlier-work' | 'target-head' | 'base';
    readonly workBranch?: string;
  };
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
  review?: {
    verdict: 'approve' | 'changes-requested';
    reasons: string[];
  };
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
  | {
      readonly kind: 'setting';
      readonly setting: string;
    }
  | {
      readonly kind: 'secret';
      readonly secret: string;
    }
  | {
      readonly kind: 'terminal';
      readonly label: string;
      readonly argv: readonly string[];
    }
  | {
      readonly kind: 'external';
      readonly hint: string;
    };

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
  | {
      readonly ready: true;
      readonly detail?: string;
    }
  | {
      readonly ready: false;
      readonly reason: string;
      readonly fix?: LaneFix;
      readonly problems?: readonly LaneProblem[];
    };

export interface LanePlugin {
  readonly manifest: LaneManifest;
  run(input: LaneRunInput): Promise<LaneResult>;
  /**
   * Optional: a cheap check (binary on PATH, server reachable, CLI signed in) of whether the lane can run as
   * configured. Switchyard checks the manifest's required settings and secrets itself, runs this check once the
   * required settings are there (a missing secret does not stop it), lists every problem found, and caches the answer
   * for a short while. A lane without it counts as ready once those are set.
   */
  readiness?(input: LaneReadinessInput): Promise<LaneReadiness>;
}

/** USD per million tokens. */
export interface PriceTable {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  /** A prompt-cache write (Anthropic's 5-minute cache); unlisted: the lane's rule, else the input price. */
  cacheWritePerMTokUsd?: number;
  /** A write to Anthropic's 1-hour cache. */
  cacheWrite1hPerMTokUsd?: number;
  /** A prompt token read from the cache. */
  cacheReadPerMTokUsd?: number;
}

/** A setting's type: `string` keeps the text as typed; `string[]` and `object` are JSON. */
export type LaneSettingType = 'string' | 'number' | 'integer' | 'boolean' | 'string[]' | 'object';

/**
 * What a setting's value can make Switchyard do: run something (`executes`), send a credential or the user's
 * environment somewhere (`routes-credential`), bring files from outside into a run's worktree
 * (`reads-outside-worktree`), weaken a price or cost cap (`weakens-protection`), or nothing of these (`plain`).
 */
export type SettingClass = 'executes' | 'routes-credential' | 'reads-outside-worktree' | 'weakens-protection' | 'plain';

/**
 * Settings every API lane understands (`switchyard lanes set <lane> key=value`, or VS Code's `switchyard.lanes`), as
 * parsed: defaults filled in.
 */
export interface ApiLaneSettings {
  model?: string;
  baseUrl?: string;
  /** Output tokens the model may produce per call (default 8192). */
  maxOutputTokens: number;
  /** Tool calls per attempt (default 50). */
  maxExecutions: number;
  /** Input + output tokens per attempt (default 2,000,000). */
  maxTokens: number;
  /** What the task may cost in USD across its runs (default 5). */
  maxTaskCostUsd: number;
  /** Overrides the manifest's price for this project. */
  price?: PriceTable;
  /** Overrides the model's context window, in tokens. */
  contextWindow?: number;
  /** `run_command` lines that are safe to run again after an interruption. */
  safeCommands: string[];
  commandTimeoutMs: number;
  /** A model stream silent this long is cut and the call retried (default 120000). */
  streamIdleTimeoutMs: number;
  /** Retry policy for failed model calls; default 4 attempts from 1 s, doubling. */
  retry?: {
    maximumAttempts?: number;
    initialIntervalMs?: number;
    backoffCoefficient?: number;
    maximumIntervalMs?: number;
    jitter?: number;
    maximumRetryAfterMs?: number;
  };
  /** Extra instructions appended to the system prompt. */
  instructions?: string;
  /** The run's timeout (read by Switchyard itself). */
  timeoutMs?: number;
}

/**
 * A zod 4 object schema (`z.object`) whose parsed value is `T`: `.extend({ … })` adds fields, `.strict()` rejects
 * unknown ones.
 */
export type ObjectSchema<T extends object> = z.ZodObject<{
  [K in keyof T]-?: undefined extends T[K] ? z.ZodOptional<z.ZodType<Exclude<T[K], undefined>>> : z.ZodType<T[K]>;
}>;

/**
 * The schema of the common settings; a lane extends it with its own fields:
 * `ApiLaneSettings.extend({ model: z.string().default('…') }).strict()`.
 */
export declare const ApiLaneSettings: ObjectSchema<ApiLaneSettings>;

/** The documentation of a lane's setting, for a manifest's `settings`. */
export interface LaneSettingDoc {
  description: string;
  required?: boolean;
  type: LaneSettingType;
  class: SettingClass;
}

/** Documentation of the common settings, to spread into a manifest's `settings`. */
export declare const API_LANE_SETTING_DOCS: Record<string, LaneSettingDoc>;

/**
 * Parses a lane's settings with its schema. An unknown or wrong field gives
 * `ok: false` and a reason naming the field and how to set it; return it as
 * `{ status: 'failed', failureReason: reason, failureCode: 'lane-misconfigured' }`.
 */
export declare function parseLaneSettings<S extends z.ZodType>(
  laneId: string,
  schema: S,
  raw: unknown,
):
  | {
      ok: true;
      settings: z.infer<S>;
    }
  | {
      ok: false;
      reason: string;
    };

/** One attempt of an API lane: the provider's model and the lane's parsed settings. */
export interface ApiLaneRun {
  /**
   * For the progress line and the price: `modelPrices` (exact id, then longest prefix), then `price`; none means $0.
   */
  manifest: Pick<LaneManifest, 'id' | 'price' | 'modelPrices' | 'contextWindow' | 'modelContextWindows'>;
  /** The durable call's name for a model call, e.g. `gemini.generate`. */
  callName: string;
  modelId: string;
  /** Any AI SDK language model (`@ai-sdk/google`, `@ai-sdk/amazon-bedrock`, …) with tool calls and streaming. */
  model: LanguageModel;
  settings: ApiLaneSettings;
  /** Anthropic prompt-cache breakpoints and their lifetime, or `off`; absent for other providers. */
  promptCache?: 'off' | '5m' | '1h';
  /** Cache prices relative to the input price, for a price table that lists none (Anthropic: 1.25, 2, 0.1). */
  cacheMultipliers?: {
    write5m: number;
    write1h: number;
    read: number;
  };
}

/**
 * Runs an API lane's attempt with Switchyard's agent loop: the standard tools
 * (read, list, search, write, edit, run a command, finish; a review gets
 * read-only tools and `verdict`), every model and tool call durable (an
 * interrupted run resumes mid-turn from the journal), the price, the budgets
 * and the model-call retry policy. A provider lane only builds the model.
 */
export declare function runApiLane(input: LaneRunInput, run: ApiLaneRun): Promise<LaneResult>;

export interface ProcessGroupSpec {
  /** The program, or with `shell` the command line (run by /bin/sh -c). */
  file: string;
  args?: readonly string[];
  shell?: boolean;
  cwd: string;
  /** Exactly the environment of the group: nothing of Switchyard's own is added. */
  env: Record<string, string>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Between SIGTERM and SIGKILL when the group is ended (default 2000). */
  killGraceMs?: number;
}

export interface ProcessGroupExit {
  exitCode?: number;
  signal?: string;
  /** Why the program could not even start (not found, permission denied). */
  spawnError?: string;
}

/** A process group as recorded with the run's lease, so whoever takes the run over can end it. */
export interface ProcessGroupRecord {
  host: string;
  bootId?: string;
  pgid: number;
  startTicks?: number;
}

export interface ProcessGroup {
  readonly stdout: Readable;
  readonly stderr: Readable;
  /**
   * Resolves once the leader has exited, nothing is left alive in its group and both streams are drained; never
   * rejects.
   */
  readonly done: Promise<ProcessGroupExit>;
  /** The group as recorded with the run's lease, once it started. */
  readonly record: ProcessGroupRecord | undefined;
  /** Ends the whole group: SIGTERM, then SIGKILL after the grace period. */
  stop(): void;
}

/**
 * Starts a program in its own process group behind a small supervisor: the
 * group dies with Switchyard (even on SIGKILL), whatever it leaves running
 * is ended before `done` resolves, and inside a run the group is recorded
 * with the run's lease. Use it for every process a lane starts.
 */
export declare function startProcessGroup(spec: ProcessGroupSpec): ProcessGroup;

/**
 * The lines of a failed command's output that say what failed: the first failing test and its assertion for
 * node:test, mocha, jest, vitest, uvu, pytest, go test and cargo test, else the first error line (npm's cause, not
 * its usage text). ANSI escapes removed; at most `max` lines (default 6); empty when nothing looks like a failure.
 */
export declare function failureLeadLines(output: string, max?: number): string[];

/** The values of the API, handed to third-party lanes at run time. */
export interface LaneToolkit {
  readonly LANE_API_VERSION: typeof LANE_API_VERSION;
  readonly startProcessGroup: typeof startProcessGroup;
  readonly runApiLane: typeof runApiLane;
  readonly ApiLaneSettings: typeof ApiLaneSettings;
  readonly API_LANE_SETTING_DOCS: typeof API_LANE_SETTING_DOCS;
  readonly parseLaneSettings: typeof parseLaneSettings;
  readonly failureLeadLines: typeof failureLeadLines;
}

/** Version 1 of the API: the lane registry and the toolkit. */
export interface SwitchyardAPI extends LaneToolkit {
  /**
   * Validates the manifest (strict) and registers the lane; disposing removes it. Throws on an invalid manifest or a
   * duplicate id.
   */
  registerLane(plugin: LanePlugin): Disposable;
  /** The registered lanes' manifests, validated, sorted by id. */
  lanes(): LaneManifest[];
}

/** What Switchyard's `activate()` returns. */
export interface SwitchyardExtension {
  /**
   * Any version but 1 throws an Error with `code: 'unsupported-api-version'`,
   * `requested` and `supported` (the versions this Switchyard has), named in its message.
   */
  getAPI(version: 1): SwitchyardAPI;
}
