import type { AddedLine } from './addedLines';
import { conflictMarkerEvidence } from './conflictMarkers';
import { scanAddedContent } from './contentScan';
import { mainWorktreeRoot } from '../git/gitExec';
import type { GuardEvidence } from './guardLog';
import { checkMergeSources } from './mergeSources';
import { loadMergePolicy, ruleForRef } from './mergePolicy';
import { computePushRange, describeUpdate, parsePrePushInput, type PushRange, type PushUpdate } from './pushRange';
import { formatEvidence, runGuard, type GuardContext, type GuardResult } from './runGuard';
import { scanSecrets, secretEvidence } from './secretScan';

/** The first line of a refusal; the installed hook only refuses a push when it sees it. */
export const PUSH_BLOCKED = 'switchyard pre-push guard: push blocked';

export interface PrePushOptions {
  /** Where git runs the hook: the top level of the worktree being pushed from. */
  cwd: string;
  /** The remote's name, or its URL when the push named a URL. */
  remote: string;
  /** git's pre-push stdin, or the updates already parsed. */
  stdin: string | readonly PushUpdate[];
  /** The repository whose `.switchyard/` holds the policy and the verdicts (default: the main worktree of `cwd`). */
  root?: string;
  /** Scan added lines for secrets (stage 3), default on. */
  secrets?: boolean;
  runId?: string;
}

export interface PrePushReport {
  blocked: boolean;
  results: GuardResult[];
  /** What to print on stderr. */
  lines: string[];
}

/**
 * The pre-push guard. Stage 1 refuses conflict markers in what the push
 * adds; stage 2 (only with `.switchyard/merge-policy.json`) refuses merges
 * of branches the policy does not allow; stage 3 refuses secrets in added
 * lines. Each stage records its verdict. Fail-safe: a stage that cannot run
 * records `guard.error` and does not block.
 */
export async function runPrePushGuard(options: PrePushOptions): Promise<PrePushReport> {
  const root = options.root ?? (await mainWorktreeRoot(options.cwd).catch(() => undefined));
  let ranges: PushRange[] = [];
  let failure: unknown;
  try {
    const updates = typeof options.stdin === 'string' ? parsePrePushInput(options.stdin) : options.stdin;
    ranges = await Promise.all(updates.map((u) => computePushRange(options.cwd, options.remote, u)));
  } catch (error) {
    failure = error;
  }
  const ctx: GuardContext = {
    root,
    runId: options.runId,
    subject: `push to ${options.remote}${ranges.length ? `: ${ranges.map((r) => describeUpdate(r.update)).join(', ')}` : ''}`,
  };
  if (failure) return report([await runGuard('pre-push', ctx, () => Promise.reject(failure))]);
  const pushed = ranges.filter((r) => r.commits.length > 0);

  const added = new Map<string, AddedLine[]>();
  const notCollected: GuardEvidence[] = [];
  const scanSecretsToo = options.secrets !== false;
  const markers = await runGuard('conflict-markers', ctx, async () => {
    const evidence: GuardEvidence[] = [];
    for (const range of pushed) {
      const scan = await scanAddedContent(options.cwd, range.base, range.update.localSha, scanSecretsToo);
      evidence.push(...conflictMarkerEvidence(scan.markers, describeUpdate(range.update)));
      for (const [file, lines] of scan.added ?? []) added.set(file, [...(added.get(file) ?? []), ...lines]);
      if (scan.notCollected)
        notCollected.push({
          message: `not scanned for secrets: ${scan.notCollected} (${describeUpdate(range.update)})`,
        });
    }
    return { verdict: evidence.length ? 'block' : 'pass', rule: 'conflict-marker', evidence };
  });

  const policy = await runGuard('merge-policy', ctx, async () => {
    const loaded = root ? await loadMergePolicy(root) : null;
    if (!loaded) return { verdict: 'pass', rule: 'no-policy', evidence: [] };
    const evidence: GuardEvidence[] = [];
    for (const range of pushed) {
      const rule = ruleForRef(loaded, range.update.remoteRef);
      if (rule) evidence.push(...(await checkMergeSources(options.cwd, options.remote, range, rule)));
    }
    return { verdict: evidence.length ? 'block' : 'pass', rule: 'merge-source', evidence };
  });

  const results = [markers, policy];
  if (scanSecretsToo) {
    results.push(
      await runGuard('secret-scan', ctx, async () => {
        if (markers.verdict === 'error')
          throw new Error('the pushed content could not be read (see the conflict-markers error)');
        const { findings, skipped } = await scanSecrets(added);
        const warnings = [...notCollected, ...skipped];
        if (findings.length)
          return { verdict: 'block', rule: 'secret', evidence: [...secretEvidence(findings), ...warnings] };
        return {
          verdict: warnings.length ? 'warn' : 'pass',
          rule: warnings.length ? 'secret-not-scanned' : 'secret',
          evidence: warnings,
        };
      }),
    );
  }
  return report(results);
}

function report(results: GuardResult[]): PrePushReport {
  const blocked = results.some((r) => r.verdict === 'block');
  const lines: string[] = [];
  if (blocked) lines.push(PUSH_BLOCKED);
  for (const r of results) {
    if (r.verdict === 'block') for (const e of r.evidence) lines.push(`  ${r.guard}: ${formatEvidence(e)}`);
    if (r.verdict === 'warn')
      for (const e of r.evidence) lines.push(`switchyard pre-push guard: warning: ${r.guard}: ${formatEvidence(e)}`);
    if (r.verdict === 'error')
      lines.push(
        `switchyard pre-push guard: ${r.guard} could not run (${r.error}); not blocking, recorded as guard.error`,
      );
    if (r.recordError)
      lines.push(`switchyard pre-push guard: could not record the ${r.guard} verdict: ${r.recordError}`);
  }
  if (blocked) lines.push('  (to push anyway, at your own risk: git push --no-verify)');
  return { blocked, results, lines };
}
