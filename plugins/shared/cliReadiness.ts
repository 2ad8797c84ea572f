import type { LaneProblem, LaneReadiness, LaneReadinessInput } from '../../src/api';
import { buildCliEnv } from './cliEnv';
import { CliLaneSettings } from './cliSettings';
import { askSignedIn, type CliSignIn } from './cliSignIn';
import { findBinary } from './findBinary';

export type { CliSignIn } from './cliSignIn';

/**
 * A CLI lane's readiness, every problem at once: each setting that does not parse; the executable (the `binary`
 * setting, else PATH, the same lookup a run makes) when the binary setting itself is fine; and, for a CLI that signs
 * in (`signIn`), when no key is set for it and the binary and `passEnv` are fine, whether the CLI says it is signed in,
 * asked with the environment a run gets (a local status command, no model call). An answer the CLI cannot give (an
 * older CLI, a crash, too slow) leaves the lane ready, as before such a check existed: the run then says what is wrong.
 */
export function cliReadiness(
  laneId: string,
  product: string,
  binaryNames: readonly string[],
  signIn?: CliSignIn,
): (input: LaneReadinessInput) => Promise<LaneReadiness> {
  return async (input) => {
    const problems: LaneProblem[] = [];
    const parsed = CliLaneSettings.safeParse(input.settings);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        problems.push({
          reason: `lane "${laneId}" is misconfigured: ${issue.path.join('.') || 'settings'}: ${issue.message}`,
          fixes: [{ kind: 'setting', setting: String(issue.path[0] ?? 'binary') }],
        });
    const binarySetting = CliLaneSettings.shape.binary.safeParse(input.settings.binary);
    const passEnv = CliLaneSettings.shape.passEnv.safeParse(input.settings.passEnv);
    if (!binarySetting.success) return notReady(problems);
    const found = await findBinary(laneId, product, binaryNames, binarySetting.data, input.env.PATH);
    if (!found.ok) {
      problems.push({ reason: found.reason, fixes: [{ kind: 'setting', setting: 'binary' }] });
      return notReady(problems);
    }
    let detail = found.path;
    if (signIn && passEnv.success && !input.secretsSet.includes(signIn.secret)) {
      const env = buildCliEnv(input.env, passEnv.data, process.env, {});
      const answer = await askSignedIn(signIn, found.path, env, input.signal);
      if (answer.signedIn === false)
        problems.push({
          reason: `lane "${laneId}": ${product} is not signed in and no ${signIn.secret} is set: sign in (\`${[found.path, ...signIn.loginArgs].join(' ')}\` in a terminal) or set ${signIn.secret} for the lane`,
          fixes: [
            { kind: 'terminal', label: 'Sign In', argv: [found.path, ...signIn.loginArgs] },
            { kind: 'secret', secret: signIn.secret },
          ],
        });
      else if (answer.signedIn === undefined)
        detail = `${found.path} (whether it is signed in is not known: ${answer.why})`;
    }
    return problems.length ? notReady(problems) : { ready: true, detail };
  };
}

/** Not ready for `problems` (never empty here): `reason` and `fix` are the first problem's. */
function notReady(problems: readonly LaneProblem[]): LaneReadiness {
  const [first] = problems;
  if (!first) throw new Error('notReady without a problem');
  const fix = first.fixes?.[0];
  return { ready: false, reason: first.reason, ...(fix ? { fix } : {}), problems };
}
