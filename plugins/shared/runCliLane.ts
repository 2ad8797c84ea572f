import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import type { LaneEvent, LaneResult, LaneRunInput } from '../../src/api';
import { buildPrompt } from './buildPrompt';
import { buildCliEnv } from './cliEnv';
import { CliLaneSettings } from './cliSettings';
import { describeCliFailure } from './describeFailure';
import { findBinary } from './findBinary';
import { parseStreamLine } from './parseStreamLine';
import { runCliProcess, type CliProcessEnd } from './runCliProcess';
import { parseVerdict } from './reviewVerdict';
import { readSalvagedWork } from './salvageContext';
import type { StreamOutcome, StreamTranslator } from './streamTranslator';

const MAX_SUMMARY_CHARS = 2_000;
/**
 * What CLIs say when a session id they are asked to resume is unknown to them (e.g. Claude Code scopes sessions by
 * directory).
 */
const SESSION_NOT_FOUND =
  /no (?:conversation|session|thread|chat|rollout)[^\n]*found|(?:conversation|session|thread|chat|rollout)[^\n]*not found/i;

/** What makes one CLI lane: how to find it, call it and read it. */
export interface CliLaneSpec<E> {
  laneId: string;
  /** The CLI's command name in messages, e.g. `claude`. */
  cli: string;
  /** The product, e.g. `Claude Code`. */
  product: string;
  /** Executable names looked up on PATH, in order. */
  binaryNames: readonly string[];
  /** The vendor secrets as the CLI reads them from its environment. */
  secretEnv(secrets: Readonly<Record<string, string>>): Record<string, string>;
  /** The CLI's arguments, and the prompt on stdin or not. A review runs read-only. */
  invocation(call: { settings: CliLaneSettings; prompt: string; sessionId?: string; review: boolean }): {
    args: string[];
    stdin?: string;
  };
  schema: z.ZodType<E>;
  /**
   * A translator for one CLI process working in `workspaceDir`, resuming session `sessionId` if set (a CLI whose
   * stream reports the session's running totals reads, from its own record in `env`'s home, what the session starts
   * from).
   */
  translator(context: {
    workspaceDir: string;
    sessionId?: string;
    env: Readonly<Record<string, string>>;
  }): StreamTranslator<E> | Promise<StreamTranslator<E>>;
  /**
   * What the CLI says when it refuses to resume a session that still exists
   * (e.g. another process of it still holds the session); treated like an
   * unknown session: a fresh session gets the salvaged work.
   */
  sessionRefused?: RegExp;
  /**
   * Made before each CLI process, for a CLI whose stream misstates or leaves out usage (see
   * plugins/codex/threadUsage.ts).
   */
  usageAccount?(env: Readonly<Record<string, string>>, sessionId: string | undefined): Promise<UsageAccount>;
}

export type LaneUsage = Extract<LaneEvent, { type: 'usage' }>['usage'];

/** One CLI process's own usage. */
export interface UsageAccount {
  /** The usage the stream reported (in session `sessionId`), as this process's own share. */
  reported(usage: LaneUsage, sessionId: string | undefined): LaneUsage;
  /** After a process (not aborted) that reported no usage: what it spent, if known. */
  unreported(sessionId: string | undefined): Promise<LaneUsage | undefined>;
}

/**
 * Runs a CLI agent as a lane: settings, binary, environment, prompt, the
 * process in the worktree, its stream parsed and translated into normalized
 * events, and a result whose failureReason is the real error. A session that
 * cannot be resumed (unknown to the CLI, or refused by it) is replaced once by
 * a fresh session that gets the salvaged work as context.
 */
export async function runCliLane<E>(spec: CliLaneSpec<E>, input: LaneRunInput): Promise<LaneResult> {
  const parsed = CliLaneSettings.safeParse(input.settings);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('; ');
    return {
      status: 'failed',
      failureCode: 'lane-misconfigured',
      failureReason: `lane "${spec.laneId}" is misconfigured: ${issues}`,
    };
  }
  const settings = parsed.data;
  const binary = await findBinary(spec.laneId, spec.product, spec.binaryNames, settings.binary, input.env.PATH);
  // A missing CLI does not appear by retrying: not retried.
  if (!binary.ok) return { status: 'failed', failureCode: 'lane-misconfigured', failureReason: binary.reason };
  const env = buildCliEnv(input.env, settings.passEnv, process.env, spec.secretEnv(input.secrets));
  if (input.mode === 'review')
    return review(spec, input, { binary: binary.path, env, settings, prompt: buildPrompt(input, {}) });
  const salvage = await readSalvagedWork(input.workspaceDir, input.resume);

  const sessionId = resumableSession(input);
  const earlier = input.resume?.sessionId;
  if (earlier && !sessionId) {
    input.emit({
      type: 'progress',
      message:
        `${spec.cli} does not resume session ${earlier}: it began in ${input.resume?.sessionCwd ?? 'another directory'}, not in this worktree, and its history names that ` +
        `directory's paths; starting a new session${salvage ? ' with the earlier work as context' : ''}`,
    });
    await countLeftover(spec, input, env, earlier);
  }
  let attempt = await runOnce(spec, input, {
    binary: binary.path,
    env,
    settings,
    sessionId,
    prompt: buildPrompt(input, { resumingSession: sessionId, salvage }),
  });
  if (
    sessionId &&
    !attempt.ok &&
    !input.signal.aborted &&
    attempt.outcome.workEvents === 0 &&
    (SESSION_NOT_FOUND.test(attempt.reason) || spec.sessionRefused?.test(attempt.reason))
  ) {
    input.emit({
      type: 'progress',
      message: `${spec.cli} could not resume session ${sessionId} (${attempt.reason}); starting a new session with the salvaged work as context`,
    });
    attempt = await runOnce(spec, input, {
      binary: binary.path,
      env,
      settings,
      prompt: buildPrompt(input, { salvage }),
    });
  }
  const sessionOut = attempt.outcome.sessionId ? { sessionId: attempt.outcome.sessionId } : {};
  const code = attempt.outcome.failureCode ? { failureCode: attempt.outcome.failureCode } : {};
  if (!attempt.ok) return { status: 'failed', failureReason: attempt.reason, ...code, ...sessionOut };
  // A clean end that did not do the work (every edit and command denied) fails with the CLI's own account.
  if (attempt.outcome.failureCode)
    return {
      status: 'failed',
      failureReason: `${spec.cli} reported: ${attempt.outcome.error ?? attempt.outcome.failureCode}`,
      ...code,
      ...sessionOut,
    };
  const text = attempt.outcome.resultText?.trim().slice(0, MAX_SUMMARY_CHARS) || `${spec.cli} finished`;
  // Warnings (some tool calls denied) stay visible on the run: they end its summary.
  const warnings = (attempt.outcome.warnings ?? []).map((w) => ` (warning: ${w})`).join('');
  return { status: 'succeeded', summary: `${text}${warnings}`, ...sessionOut };
}

/**
 * What the earlier session spent that no stream reported (a process killed mid-turn reports nothing of the turn; see
 * plugins/codex/threadUsage.ts), counted once, here, when the session is not resumed (a resumed one counts it itself).
 */
async function countLeftover<E>(
  spec: CliLaneSpec<E>,
  input: LaneRunInput,
  env: Record<string, string>,
  session: string,
): Promise<void> {
  const account = await spec.usageAccount?.(env, session);
  const left = await account?.unreported(session).catch(() => undefined);
  if (!left) return;
  input.emit({
    type: 'progress',
    message: `${spec.cli}'s session ${session} spent ${left.inputTokens ?? 0} input and ${left.outputTokens ?? 0} output tokens after its last report (its process stopped mid-turn): counted in this run`,
  });
  input.emit({ type: 'usage', usage: left });
}

/**
 * The earlier session this attempt resumes: only one that began in this very worktree. An agent CLI's session is
 * bound to its directory: its history names that directory's files, so a session resumed elsewhere acts on the
 * earlier worktree (Claude Code 2.1.332 then refuses its writes as "outside allowed working directories").
 */
function resumableSession(input: LaneRunInput): string | undefined {
  const resume = input.resume;
  if (!resume?.sessionId || !resume.sessionCwd) return undefined;
  return samePath(resume.sessionCwd, input.workspaceDir) ? resume.sessionId : undefined;
}

function samePath(a: string, b: string): boolean {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return resolve(a) === resolve(b) || real(a) === real(b);
}

/** A review: one fresh, read-only session whose final answer ends with a verdict. */
async function review<E>(spec: CliLaneSpec<E>, input: LaneRunInput, options: OnceOptions): Promise<LaneResult> {
  const attempt = await runOnce(spec, input, options, true);
  if (!attempt.ok) return { status: 'failed', failureReason: attempt.reason };
  const verdict = parseVerdict(attempt.outcome.resultText);
  const summary =
    (attempt.outcome.resultText ?? '').trim().slice(0, MAX_SUMMARY_CHARS) || `${spec.cli} finished its review`;
  // Without a verdict the host says so; the answer stays as the summary.
  return verdict ? { status: 'succeeded', summary, review: verdict } : { status: 'succeeded', summary };
}

interface OnceOptions {
  binary: string;
  env: Record<string, string>;
  settings: CliLaneSettings;
  sessionId?: string;
  prompt: string;
}

type OnceResult = { ok: true; outcome: StreamOutcome } | { ok: false; reason: string; outcome: StreamOutcome };

async function runOnce<E>(
  spec: CliLaneSpec<E>,
  input: LaneRunInput,
  options: OnceOptions,
  review = false,
): Promise<OnceResult> {
  const translator = await spec.translator({
    workspaceDir: input.workspaceDir,
    sessionId: options.sessionId,
    env: options.env,
  });
  const account = await spec.usageAccount?.(options.env, options.sessionId);
  let usageSeen = false;
  const emitAll = (events: LaneEvent[]): void =>
    events.forEach((e) => {
      if (e.type === 'usage') usageSeen = true;
      input.emit(
        e.type === 'usage' && account ? { ...e, usage: account.reported(e.usage, translator.outcome.sessionId) } : e,
      );
    });
  const onLine = (raw: string): void => {
    const line = parseStreamLine(raw, spec.schema);
    if (line.kind === 'event') emitAll(translator.translate(line.event));
    else if (line.kind !== 'blank') input.emit({ type: 'log', stream: 'stdout', line: raw });
  };
  const { args, stdin } = spec.invocation({
    settings: options.settings,
    prompt: options.prompt,
    sessionId: options.sessionId,
    review,
  });
  const end: CliProcessEnd = await runCliProcess({
    binary: options.binary,
    args,
    cwd: input.workspaceDir,
    env: options.env,
    stdin,
    signal: input.signal,
    onStdoutLine: onLine,
    onStderrLine: (line) => input.emit({ type: 'log', stream: 'stderr', line }),
  });
  if (end.cutLine !== undefined) {
    // A complete event that only lacks its newline is still an event; anything else is the cut.
    const last = parseStreamLine(end.cutLine, spec.schema);
    if (last.kind === 'event') {
      emitAll(translator.translate(last.event));
      delete end.cutLine;
    } else if (last.kind !== 'blank') {
      input.emit({ type: 'log', stream: 'stdout', line: end.cutLine });
    }
  }
  const outcome = translator.outcome;
  if (account && !usageSeen && !end.aborted) {
    const spent = await account.unreported(outcome.sessionId);
    if (spent) input.emit({ type: 'usage', usage: spent });
  }
  // A half line after a successful result is noise (kept as a log line); before one, it is the cut that ended the run.
  const clean = !end.aborted && !end.spawnError && end.exitCode === 0;
  if (clean && outcome.finished && outcome.succeeded) return { ok: true, outcome };
  return {
    ok: false,
    outcome,
    reason: describeCliFailure({ cli: spec.cli, end, cliError: outcome.error, finished: outcome.finished }),
  };
}
