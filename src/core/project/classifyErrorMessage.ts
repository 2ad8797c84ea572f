import { mainWorktreeRoot } from '../git/gitExec';
import { type Classification, classify, loadErrorRules } from '../retry/classifyError';
import { BUILTIN_ERROR_RULES } from '../retry/errorRules';

export type { Classification } from '../retry/classifyError';

/**
 * How a drain would classify an error message (its class decides a retry): by the rules of the repository that
 * contains `dir` (`.switchyard/error-rules.json` before the built-in rules; a bad rules file is an error), or by the
 * built-in rules alone outside a repository.
 */
export async function classifyErrorMessage(message: string, dir: string): Promise<Classification> {
  const root = await mainWorktreeRoot(dir).catch(() => undefined);
  return classify(message, root ? await loadErrorRules(root) : [...BUILTIN_ERROR_RULES]);
}
