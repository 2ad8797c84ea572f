import { join } from 'node:path';
import { z } from 'zod';
import { readJsonConfig } from '../store/readJsonConfig';
import { SwitchyardError } from '../errors';
import { STATE_DIR } from '../store/stateDir';
import { errorFacts, retryAfterMs, type ErrorFacts } from './errorFacts';
import { BUILTIN_ERROR_RULES, DEFAULT_RULE, type ErrorClass, type ErrorMatcher, type ErrorRule } from './errorRules';

export type { ErrorClass, ErrorRule } from './errorRules';

export interface Classification {
  class: ErrorClass;
  /** The id of the rule that matched (`unclassified` when none did). */
  rule: string;
  description: string;
  /** How long the server asked us to wait, when it said so. */
  retryAfterMs?: number;
}

/**
 * Classifies anything thrown or reported (an Error, an HTTP error with a
 * status, a git or CLI message) as `transient`, `ci-pending` or
 * `permanent`, with the rule that decided. First matching rule wins;
 * nothing matching means transient.
 */
export function classify(error: unknown, rules: readonly ErrorRule[] = BUILTIN_ERROR_RULES): Classification {
  const facts = errorFacts(error);
  const rule = rules.find((r) => ruleMatches(r, facts)) ?? DEFAULT_RULE;
  const wait = retryAfterMs(facts);
  return {
    class: rule.class,
    rule: rule.id,
    description: rule.description,
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}

function ruleMatches(rule: ErrorRule, facts: ErrorFacts): boolean {
  const matchers: readonly ErrorMatcher[] = Array.isArray(rule.match) ? rule.match : [rule.match as ErrorMatcher];
  return matchers.some((m) => matcherMatches(m, facts));
}

function matcherMatches(m: ErrorMatcher, facts: ErrorFacts): boolean {
  if (!m.status && !m.code && !m.message) return false;
  if (m.status) {
    const range = m.status;
    const ok = Array.isArray(range)
      ? facts.statuses.some((s) => range.includes(s))
      : facts.statuses.some((s) => s >= (range as { min: number }).min && s <= (range as { max: number }).max);
    if (!ok) return false;
  }
  if (m.code && !facts.codes.some((c) => m.code!.includes(c))) return false;
  if (m.message && !m.message.test(facts.text)) return false;
  return true;
}

/** A project's own rules: `<repo>/.switchyard/error-rules.json`, tried before the built-in ones. */
export const ERROR_RULES_FILE = 'error-rules.json';

const ProjectRule = z
  .object({
    id: z.string().min(1),
    class: z.enum(['transient', 'ci-pending', 'permanent']),
    description: z.string().default('project rule'),
    /** A regular expression tested against the error's messages (its cause chain included). */
    message: z.string().min(1).optional(),
    flags: z
      .string()
      .regex(/^[imsu]*$/, 'only the flags i, m, s and u')
      .default('i'),
    status: z.array(z.number().int().min(100).max(599)).min(1).optional(),
    code: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict()
  .refine((r) => r.message || r.status || r.code, { message: 'a rule needs at least one of message, status or code' });

const ProjectRules = z.object({ rules: z.array(ProjectRule) }).strict();

/**
 * The project's rules followed by the built-in ones. No file: the built-in rules. A bad file is an error naming the
 * file and field.
 */
export async function loadErrorRules(root: string): Promise<ErrorRule[]> {
  const file = join(root, STATE_DIR, ERROR_RULES_FILE);
  const data = await readJsonConfig(file, ProjectRules);
  if (data === undefined) return [...BUILTIN_ERROR_RULES];
  const own = data.rules.map((r, i): ErrorRule => {
    let message: RegExp | undefined;
    try {
      message = r.message ? new RegExp(r.message, r.flags) : undefined;
    } catch (error) {
      throw new SwitchyardError('invalid-input', `${file}: rules.${i}.message: ${(error as Error).message}`);
    }
    return { id: r.id, class: r.class, description: r.description, match: { status: r.status, code: r.code, message } };
  });
  return [...own, ...BUILTIN_ERROR_RULES];
}
