import { join } from 'node:path';
import { z } from 'zod';
import { readJsonConfig } from '../store/readJsonConfig';
import { STATE_DIR } from '../store/stateDir';

/** The opt-in merge policy: `<repo>/.switchyard/merge-policy.json`. */
export const MERGE_POLICY_FILE = 'merge-policy.json';

const Pattern = z.string().min(1);

export const MergePolicyRule = z
  .object({
    /** Branches pushed under this rule (the remote ref being updated), e.g. `feature/*` or `switchyard/**`. */
    feature: z.union([Pattern, z.array(Pattern).min(1)]),
    /** The branch their pull requests aim at, e.g. `main`. Its history may always be merged in. */
    base: Pattern,
    /** More branches whose history may be merged in, e.g. `release/*`. */
    allowed: z.array(Pattern).default([]),
  })
  .strict();
export type MergePolicyRule = z.infer<typeof MergePolicyRule>;

export const MergePolicy = z
  .object({ version: z.literal(1).optional(), rules: z.array(MergePolicyRule).min(1) })
  .strict();
export type MergePolicy = z.infer<typeof MergePolicy>;

export function mergePolicyPath(root: string): string {
  return join(root, STATE_DIR, MERGE_POLICY_FILE);
}

/**
 * The policy, or null when the file does not exist (stage 2 is off). A bad file is an error naming the file and field.
 */
export async function loadMergePolicy(root: string): Promise<MergePolicy | null> {
  const file = mergePolicyPath(root);
  const data = await readJsonConfig(file, MergePolicy);
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
