import type { GuardEvidence } from './guardLog';

/**
 * git's conflict marker lines, at line start, 7 characters wide (git's
 * default `conflict-marker-size`): `<<<<<<< ours`, `||||||| base` (diff3 and
 * zdiff3) and `>>>>>>> theirs`, with or without the label. The `=======`
 * separator is deliberately not matched: Markdown setext headings and tables
 * use such lines, and a half-resolved conflict always leaves one of the
 * other three behind.
 */
export const CONFLICT_MARKER = /^(?:<{7}|>{7}|\|{7})(?:\s|$)/;

/** The same rule as a POSIX extended regex, for `git grep -E`. */
export const CONFLICT_MARKER_ERE = '^(<<<<<<<|>>>>>>>|[|]{7})([[:space:]]|$)';

export type MarkerKind = 'ours' | 'base' | 'theirs';

export function conflictMarkerKind(line: string): MarkerKind | undefined {
  if (!CONFLICT_MARKER.test(line)) return undefined;
  return line[0] === '<' ? 'ours' : line[0] === '|' ? 'base' : 'theirs';
}

export interface ConflictMarkerFinding {
  file: string;
  line: number;
  kind: MarkerKind;
  text: string;
}

/** Scans lines (numbered as in the file) of one file. */
export function findConflictMarkers(
  file: string,
  lines: Iterable<{ line: number; text: string }>,
): ConflictMarkerFinding[] {
  const found: ConflictMarkerFinding[] = [];
  for (const { line, text } of lines) {
    const kind = conflictMarkerKind(text);
    if (kind) found.push({ file, line, kind, text: text.trimEnd() });
  }
  return found;
}

/** Evidence lines for findings; marker labels are branch names, never content, so they are shown. */
export function conflictMarkerEvidence(findings: readonly ConflictMarkerFinding[], where?: string): GuardEvidence[] {
  return findings.map((f) => ({
    file: f.file,
    line: f.line,
    message: `conflict marker "${clip(f.text, 60)}" committed${where ? ` (${where})` : ''}`,
  }));
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
