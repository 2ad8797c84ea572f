import { z } from 'zod';
import { LaneId } from '../../core/model/task';
import { describeZodError } from '../../core/model/zodIssues';

/** The contribution point a lane extension declares in its package.json: `contributes["switchyard.lanes"]`. */
export const LANES_CONTRIBUTION = 'switchyard.lanes';

/** One lane an extension says it registers: `{ "id": "my-lane" }`, the id its manifest has. */
const LaneContribution = z.object({ id: LaneId }).strict();

export type LaneContributions = { ok: true; laneIds: string[] } | { ok: false; reason: string };

/**
 * The lanes an extension's package.json contributes (`"contributes": { "switchyard.lanes": [{ "id": "my-lane" }] }`):
 * none when it has no such entry; a reason naming the entry when it is not a list of `{ id }`.
 */
export function laneContributions(packageJson: unknown): LaneContributions {
  const contributes = (packageJson as { contributes?: unknown } | undefined)?.contributes;
  const raw =
    contributes && typeof contributes === 'object' ? (contributes as Record<string, unknown>)[LANES_CONTRIBUTION] : [];
  const parsed = z.array(LaneContribution).safeParse(raw ?? []);
  if (!parsed.success) {
    const expected = `contributes["${LANES_CONTRIBUTION}"] must be a list of { "id": "<lane id>" }`;
    return { ok: false, reason: `${expected}: ${describeZodError(parsed.error)}` };
  }
  return { ok: true, laneIds: parsed.data.map((lane) => lane.id) };
}
