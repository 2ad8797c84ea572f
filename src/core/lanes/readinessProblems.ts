import { z } from 'zod';
import { describeZodError } from '../model/zodIssues';
import type { LaneProblem, LaneReadiness } from './lanePlugin';

const LaneFixSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('setting'), setting: z.string().min(1) }),
  z.object({ kind: z.literal('secret'), secret: z.string().min(1) }),
  z.object({
    kind: z.literal('terminal'),
    label: z.string().trim().min(1).max(40),
    argv: z.array(z.string().min(1)).min(1),
  }),
  z.object({ kind: z.literal('external'), hint: z.string().min(1) }),
]);

const LaneProblemSchema = z.object({ reason: z.string().min(1), fixes: z.array(LaneFixSchema).optional() });

/**
 * A lane's answer as its readiness check gives it (a plugin's output: parsed where it enters). Members Switchyard does
 * not know are dropped, not refused: a newer lane may say more.
 */
const LaneReadinessSchema = z.discriminatedUnion('ready', [
  z.object({ ready: z.literal(true), detail: z.string().optional() }),
  z.object({
    ready: z.literal(false),
    reason: z.string().min(1),
    fix: LaneFixSchema.optional(),
    problems: z.array(LaneProblemSchema).optional(),
  }),
]);

/** The problems of an answer: its list, else its one reason and fix; none when it is ready. */
export function readinessProblems(readiness: LaneReadiness): readonly LaneProblem[] {
  if (readiness.ready) return [];
  if (readiness.problems?.length) return readiness.problems;
  return [{ reason: readiness.reason, ...(readiness.fix ? { fixes: [readiness.fix] } : {}) }];
}

/** Not ready for `problems` (at least one): `reason` and `fix` are the first problem's, as older readers expect. */
export function notReady(problems: readonly [LaneProblem, ...LaneProblem[]]): LaneReadiness {
  const [first] = problems;
  const fix = first.fixes?.[0];
  return { ready: false, reason: first.reason, ...(fix ? { fix } : {}), problems };
}

/**
 * A lane's own answer read as Switchyard uses it: malformed → one problem naming what is wrong with it; not ready →
 * its problems listed (an answer with only `reason` and `fix` becomes one problem).
 */
export function readLaneAnswer(laneId: string, answer: unknown): LaneReadiness {
  const parsed = LaneReadinessSchema.safeParse(answer);
  if (!parsed.success)
    return notReady([
      {
        reason: `lane "${laneId}": its readiness check gave an answer Switchyard cannot read: ${describeZodError(parsed.error)}`,
      },
    ]);
  const readiness = parsed.data as LaneReadiness;
  if (readiness.ready) return readiness;
  const [first, ...rest] = readinessProblems(readiness);
  return notReady([first!, ...rest]);
}
