import type { AddedLine } from './addedLines';
import type { SecretFinding } from './secretScan';

/**
 * A secret of the run: the name it has (an environment variable, a lane secret) and its value, which never leaves this
 * module.
 */
export interface KnownSecret {
  name: string;
  value: string;
}

/**
 * Finds the run's own secrets, verbatim, in the lines a change adds, whatever
 * their format (a pattern scanner only knows the vendors' formats). A value
 * that spans lines is found through its lines, which are known secrets too.
 * A finding says where and whose value it is, never the value.
 */
export function scanKnownSecrets(
  files: ReadonlyMap<string, readonly AddedLine[]>,
  secrets: readonly KnownSecret[],
): SecretFinding[] {
  const wanted = secrets.filter((s) => s.value && !s.value.includes('\n'));
  if (!wanted.length) return [];
  const findings: SecretFinding[] = [];
  for (const [file, lines] of files) {
    for (const { line, text } of lines) {
      const seen = new Set<string>();
      for (const secret of wanted) {
        if (seen.has(secret.name) || !text.includes(secret.value)) continue;
        seen.add(secret.name);
        findings.push({
          file,
          line,
          rule: 'known-secret',
          kind: `the value of ${secret.name}, a secret of this run`,
          length: secret.value.length,
        });
      }
    }
  }
  return findings;
}
