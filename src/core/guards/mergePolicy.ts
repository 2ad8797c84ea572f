import { join } from 'node:path';
import { MergePolicy, type MergePolicyRule } from '../model/mergePolicyRules';
import { readProjectConfig } from '../store/projectConfig';
import { readJsonConfig } from '../store/readJsonConfig';
import { STATE_DIR } from '../store/stateDir';

/** The opt-in merge policy: `<repo>/.switchyard/merge-policy.json`. */
export const MERGE_POLICY_FILE = 'merge-policy.json';

export { MergePolicy, MergePolicyRule } from '../model/mergePolicyRules';

export function mergePolicyPath(root: string): string {
  return join(root, STATE_DIR, MERGE_POLICY_FILE);
}

/** The deprecation note for a policy still read from `.switchyard/merge-policy.json`. */
export function mergePolicyDeprecation(root: string): string {
  return `${mergePolicyPath(root)} is deprecated and ignored by git: move its rules to "mergePolicy" in .switchyard/config.json (committed with the repository), then delete it`;
}

/**
 * The policy: `mergePolicy` of the committed `.switchyard/config.json`, else (deprecated, `onDeprecated` is told) the
 * old `.switchyard/merge-policy.json`; null when neither has one (stage 2 is off). A bad file is an error naming the
 * file and field.
 */
export async function loadMergePolicy(
  root: string,
  onDeprecated?: (note: string) => void,
): Promise<MergePolicy | null> {
  // A merge policy with a typo is an error naming it, never a silent fall back to a laxer default.
  const config = await readProjectConfig(root, { strict: 'mergePolicy' });
  if (config?.mergePolicy) return MergePolicy.parse(config.mergePolicy);
  const data = await readJsonConfig(mergePolicyPath(root), MergePolicy);
  if (data) onDeprecated?.(mergePolicyDeprecation(root));
  return data ?? null;
}

/**
 * Whether a branch pattern matches a ref. Patterns name branches
 * (`main`, `feature/*`, `release/**`); `*` stays within one path segment,
 * `**` crosses them. A pattern starting with `refs/` matches full ref names.
 */
export function refPatternMatches(pattern: string, ref: string): boolean {
  const name = pattern.startsWith('refs/') ? ref : ref.replace(/^refs\/(?:heads|remotes\/[^/]+)\//, '');
  return globToRegExp(pattern).test(name);
}

function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** The first rule whose `feature` pattern matches the remote ref being pushed. */
export function ruleForRef(policy: MergePolicy, remoteRef: string): MergePolicyRule | undefined {
  return policy.rules.find((r) =>
    (Array.isArray(r.feature) ? r.feature : [r.feature]).some((p) => refPatternMatches(p, remoteRef)),
  );
}

/** The branch patterns whose history a push under `rule` may merge in: the base first, then the rest. */
export function allowedPatterns(rule: MergePolicyRule): string[] {
  return [rule.base, ...rule.allowed];
}
