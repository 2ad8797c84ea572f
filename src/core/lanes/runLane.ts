import { errorMessage } from '../errors';
import type { FailureCode } from '../model/failureCodes';
import { LaneEvent } from '../model/laneEvent';
import { LaneResult } from '../model/laneResult';
import { sumUsage, type Usage } from '../model/laneEvent';
import { describeZodError } from '../model/zodIssues';
import { formatMs } from '../text/formatMs';
import type { RegisteredLane } from './laneRegistry';
import type { LaneRunInput } from './lanePlugin';

export type LaneOutcome =
  | { ok: true; summary?: string; usage?: Usage; sessionId?: string; review?: LaneResult['review'] }
  | { ok: false; code: FailureCode; reason: string; usage?: Usage; sessionId?: string };

export interface RunLaneOptions {
  timeoutMs: number;
  /** How long a lane may take to settle after it was aborted before the host gives up on it. */
  abortGraceMs?: number;
  /** Aborted when the task is canceled. */
  cancelSignal?: AbortSignal;
  onEvent?(event: LaneEvent): void;
}

type LaneInputBase = Omit<LaneRunInput, 'signal' | 'emit'>;

/**
 * Runs one lane attempt and contains it: a lane that throws, hangs past its
 * timeout, returns garbage or emits malformed events fails the run with a
 * clear reason; nothing it does escapes into the host.
 */
export async function runLane(
  lane: RegisteredLane,
  base: LaneInputBase,
  options: RunLaneOptions,
): Promise<LaneOutcome> {
  const controller = new AbortController();
  let verdict: Extract<LaneOutcome, { ok: false }> | undefined;
  const stop = (code: FailureCode, reason: string): void => {
    if (verdict) return;
    verdict = { ok: false, code, reason };
    controller.abort(new Error(reason));
  };
  let usage: Usage | undefined;
  let sessionId: string | undefined;

  const emit = (raw: unknown): void => {
    if (verdict) return;
    const parsed = LaneEvent.safeParse(raw);
    if (!parsed.success) {
      stop(
        'lane-malformed-event',
        `lane "${lane.manifest.id}" emitted a malformed event: ${describeZodError(parsed.error)}`,
      );
      return;
    }
    const event = parsed.data;
    if (event.type === 'usage') usage = addUsage(usage, event.usage);
    if (event.type === 'session') sessionId = event.sessionId;
    try {
      options.onEvent?.(event);
    } catch {
      // A failing observer must not fail the lane.
    }
  };

  const onCancel = (): void => stop('canceled', 'the task was canceled');
  if (options.cancelSignal?.aborted) onCancel();
  options.cancelSignal?.addEventListener('abort', onCancel, { once: true });
  const timer = setTimeout(
    () =>
      stop(
        'lane-timeout',
        `lane "${lane.manifest.id}" did not finish within ${formatMs(options.timeoutMs)} and was aborted`,
      ),
    options.timeoutMs,
  );

  const settled = (async (): Promise<LaneOutcome> => {
    try {
      const raw = await lane.plugin.run({ ...base, signal: controller.signal, emit });
      const parsed = LaneResult.safeParse(raw);
      if (!parsed.success) {
        return {
          ok: false,
          code: 'lane-malformed-event',
          reason: `lane "${lane.manifest.id}" returned a malformed result: ${describeZodError(parsed.error)}`,
        };
      }
      const result = parsed.data;
      usage = result.usage ?? usage;
      sessionId = result.sessionId ?? sessionId;
      if (result.status === 'succeeded')
        return {
          ok: true,
          summary: result.summary,
          usage,
          sessionId,
          ...(result.review ? { review: result.review } : {}),
        };
      return {
        ok: false,
        code: result.failureCode ?? 'lane-exit',
        reason: result.failureReason ?? `lane "${lane.manifest.id}" reported failure without a reason`,
        usage,
        sessionId,
      };
    } catch (error) {
      return { ok: false, code: 'lane-crash', reason: `lane "${lane.manifest.id}" threw: ${errorMessage(error)}` };
    }
  })();

  // Once aborted, the lane gets a grace period to settle; after that the host moves on without it.
  const abandoned = new Promise<'abandoned'>((resolve) => {
    controller.signal.addEventListener(
      'abort',
      () => setTimeout(() => resolve('abandoned'), options.abortGraceMs ?? 5_000).unref?.(),
      { once: true },
    );
  });

  try {
    const first = await Promise.race([settled, abandoned]);
    // A success that still arrives after a cancel is a late result: the caller keeps it as stale.
    if (verdict?.code === 'canceled' && first !== 'abandoned' && first.ok) return first;
    if (verdict) return { ...verdict, usage, sessionId };
    return first === 'abandoned' ? { ok: false, code: 'lane-crash', reason: 'lane abandoned' } : first;
  } finally {
    clearTimeout(timer);
    options.cancelSignal?.removeEventListener('abort', onCancel);
  }
}

function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return { ...b };
  return sumUsage(a, b);
}
