import { errorMessage } from '../errors';
import type { SecretSource } from '../secrets/secretSource';
import { buildLaneEnv } from './laneEnv';
import type { LaneProblem, LaneReadiness } from './lanePlugin';
import { notReady, readinessProblems, readLaneAnswer } from './readinessProblems';
import type { RegisteredLane } from './laneRegistry';

/** How long a lane's own check may take before it counts as not answering. */
export const READINESS_TIMEOUT_MS = 3_000;
/** How long an answer is reused for the same lane, settings and secrets. */
export const READINESS_TTL_MS = 30_000;

export interface ReadinessInput {
  settings: Readonly<Record<string, unknown>>;
  secrets: SecretSource;
  parentEnv: NodeJS.ProcessEnv;
}

/**
 * Whether `lane` can run as configured, with every problem found at once: each required setting that is missing, each
 * required secret that is not set, and, once the required settings are there (a check may need them), the problems of
 * the lane's own `readiness` check, bounded by READINESS_TIMEOUT_MS. A check that throws, does not answer or answers
 * something unreadable is one more problem, with that reason; a lane without a check is ready once its settings and
 * secrets are there.
 */
export async function checkLaneReadiness(lane: RegisteredLane, input: ReadinessInput): Promise<LaneReadiness> {
  const { manifest } = lane;
  const problems: LaneProblem[] = [];
  for (const [name, doc] of Object.entries(manifest.settings)) {
    const value = input.settings[name];
    if (!doc.required || (value !== undefined && value !== null && String(value).trim() !== '')) continue;
    problems.push({
      reason: `lane "${manifest.id}" needs the "${name}" setting: set switchyard.lanes → ${manifest.id} → ${name} (or run switchyard lanes set ${manifest.id} ${name}=…)`,
      fixes: [{ kind: 'setting', setting: name }],
    });
  }
  const settingsMissing = problems.length > 0;
  const secretsSet: string[] = [];
  for (const name of new Set([...manifest.requiredSecrets, ...manifest.optionalSecrets])) {
    const value = await input.secrets.get(manifest.id, name).catch((error: unknown) => {
      throw new Error(`lane "${manifest.id}" could not look up ${name}: ${errorMessage(error)}`);
    });
    if (value) secretsSet.push(name);
    else if (manifest.requiredSecrets.includes(name))
      problems.push({
        reason: `lane "${manifest.id}" needs ${name}, which is not set: ${input.secrets.howToSet(manifest.id, name)}`,
        fixes: [{ kind: 'secret', secret: name }],
      });
  }
  if (lane.plugin.readiness && !settingsMissing) {
    const own = await ownCheck(lane, input, secretsSet);
    if (!own.ready) problems.push(...readinessProblems(own));
    else if (!problems.length) return own;
  }
  const [first, ...rest] = problems;
  return first ? notReady([first, ...rest]) : { ready: true };
}

/** The lane's own check, bounded by READINESS_TIMEOUT_MS (then aborted); its answer read as Switchyard uses it. */
async function ownCheck(lane: RegisteredLane, input: ReadinessInput, secretsSet: string[]): Promise<LaneReadiness> {
  const { manifest } = lane;
  const own = lane.plugin.readiness!;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<LaneReadiness>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({
        ready: false,
        reason: `lane "${manifest.id}": its readiness check did not answer within ${READINESS_TIMEOUT_MS / 1000} s`,
      });
    }, READINESS_TIMEOUT_MS);
  });
  try {
    const env = buildLaneEnv(input.parentEnv, manifest.envAllowlist, {});
    const answer = await Promise.race([
      own.call(lane.plugin, { settings: input.settings, secretsSet, env, signal: controller.signal }),
      late,
    ]);
    return readLaneAnswer(manifest.id, answer);
  } catch (error) {
    return { ready: false, reason: `lane "${manifest.id}": its readiness check failed: ${errorMessage(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Readiness answers reused for READINESS_TTL_MS per lane, settings and secret source (a changed setting re-checks). */
export class ReadinessCache {
  private readonly entries = new Map<string, { at: number; answer: Promise<LaneReadiness> }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(lane: RegisteredLane, input: ReadinessInput): Promise<LaneReadiness> {
    const key = `${lane.manifest.id}\u0000${JSON.stringify(input.settings)}`;
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < READINESS_TTL_MS) return hit.answer;
    const answer = checkLaneReadiness(lane, input).catch(
      (error: unknown): LaneReadiness => notReady([{ reason: errorMessage(error) }]),
    );
    this.entries.set(key, { at: this.now(), answer });
    return answer;
  }

  /** Forgets every answer (a key was stored, a setting changed). */
  clear(): void {
    this.entries.clear();
  }
}
