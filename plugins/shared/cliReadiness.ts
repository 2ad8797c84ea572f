import type { LaneReadiness, LaneReadinessInput } from '../../src/api';
import { CliLaneSettings } from './cliSettings';
import { findBinary } from './findBinary';

/**
 * A CLI lane's readiness: its settings parse and its executable is found (the `binary` setting, else PATH), the
 * same lookup a run makes. Whether the CLI is signed in is left to the run (asking costs a process start).
 */
export function cliReadiness(
  laneId: string,
  product: string,
  binaryNames: readonly string[],
): (input: LaneReadinessInput) => Promise<LaneReadiness> {
  return async (input) => {
    const parsed = CliLaneSettings.safeParse(input.settings);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const setting = String(issue.path[0] ?? 'binary');
      return {
        ready: false,
        reason: `lane "${laneId}" is misconfigured: ${issue.path.join('.') || 'settings'}: ${issue.message}`,
        fix: { kind: 'setting', setting },
      };
    }
    const found = await findBinary(laneId, product, binaryNames, parsed.data.binary, input.env.PATH);
    if (found.ok) return { ready: true, detail: found.path };
    return { ready: false, reason: found.reason, fix: { kind: 'setting', setting: 'binary' } };
  };
}
