import { errorMessage } from '../errors';
import { conflictMarkerEvidence } from './conflictMarkers';
import { scanAddedContent, scanPatchContent, type ContentScan } from './contentScan';
import type { GuardEvidence } from './guardLog';
import { scanKnownSecrets, type KnownSecret } from './knownSecretScan';
import { providedPathEvidence, type ProvidedPaths } from './providedPathScan';
import { formatEvidence, runGuard, type GuardResult } from './runGuard';
import { scanSecrets, secretEvidence } from './secretScan';

export interface RunDiffGuardOptions {
  /** The repository whose `.switchyard/guards.jsonl` records the verdicts. */
  root: string;
  /** Where to run git (the run's worktree, or the repository). */
  cwd: string;
  base: string;
  head: string;
  runId?: string;
  /**
   * The change's patch as the run captured it (`git diff --patch base head`, before any redaction): the guards read
   * their lines from it instead of diffing the change again.
   */
  patch?: string;
  /**
   * The run's own secrets (resolved lane secrets, credentials passed in its environment): a change holding one verbatim
   * is blocked.
   */
  secrets?: readonly KnownSecret[];
  /**
   * What worktree setup copied and linked into the run's worktree: a change that commits one of these paths is blocked
   * (the values of copied files are among `secrets`).
   */
  provided?: ProvidedPaths;
}

export interface RunDiffGuardReport {
  blocked: boolean;
  results: GuardResult[];
  /** One line for a run's failure reason, with file:line evidence (secrets redacted); undefined when not blocked. */
  reason?: string;
}

/**
 * The integration gate for a run's change (`base..head`): conflict markers
 * and secrets in the lines the run adds (vendor key formats, and the run's
 * own secret values verbatim, whatever their format, the values of copied
 * files among them; and the copied or linked paths themselves). Same rules
 * and fail-safety as the pre-push guard; each verdict is recorded with the
 * run id. Given the run's own patch, its lines are read from it (no second
 * diff).
 */
export async function guardRunDiff(options: RunDiffGuardOptions): Promise<RunDiffGuardReport> {
  const ctx = {
    root: options.root,
    runId: options.runId,
    subject: `change ${options.base.slice(0, 12)}..${options.head.slice(0, 12)}`,
  };
  let scan: ContentScan | undefined;
  const markers = await runGuard('conflict-markers', ctx, async () => {
    scan =
      options.patch === undefined
        ? await scanAddedContent(options.cwd, options.base, options.head, true)
        : await scanPatchContent(options.cwd, options.base, options.head, options.patch, true);
    const evidence = conflictMarkerEvidence(scan.markers);
    return { verdict: evidence.length ? 'block' : 'pass', rule: 'conflict-marker', evidence };
  });
  const secrets = await runGuard('secret-scan', ctx, async () => {
    if (!scan) throw new Error('the change could not be read (see the conflict-markers error)');
    const added = scan.added ?? new Map();
    const { findings: patterns, skipped } = await scanSecrets(added);
    const findings = [...scanKnownSecrets(added, options.secrets ?? []), ...patterns];
    // A failure to list the paths costs only that check: the value scans above still decide.
    let pathsUnchecked: string | undefined;
    const paths = options.provided
      ? await providedPathEvidence(options.cwd, options.base, options.head, options.provided).catch((error) => {
          pathsUnchecked = errorMessage(error);
          return [];
        })
      : [];
    const warnings: GuardEvidence[] = [
      ...skipped,
      ...(pathsUnchecked ? [{ message: `copied and linked paths not checked: ${pathsUnchecked}` }] : []),
      ...(scan.notCollected ? [{ message: `not scanned for secrets: ${scan.notCollected}` }] : []),
    ];
    if (findings.length || paths.length)
      return { verdict: 'block', rule: 'secret', evidence: [...paths, ...secretEvidence(findings), ...warnings] };
    return {
      verdict: warnings.length ? 'warn' : 'pass',
      rule: warnings.length ? 'secret-not-scanned' : 'secret',
      evidence: warnings,
    };
  });
  const results = [markers, secrets];
  const blocking = results.filter((r) => r.verdict === 'block');
  if (!blocking.length) return { blocked: false, results };
  const evidence = blocking.flatMap((r) => r.evidence.map((e) => `${r.guard}: ${formatEvidence(e)}`));
  const reason = `blocked by guards: ${evidence.slice(0, 5).join('; ')}${evidence.length > 5 ? ` (+${evidence.length - 5} more)` : ''}`;
  return { blocked: true, results, reason };
}
