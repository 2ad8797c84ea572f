import type { AddedLine } from './addedLines';
import type { GuardEvidence } from './guardLog';

/**
 * A found secret: where it is and which rule found it, never the value.
 * `length` is the only property of the secret kept, so output can say how
 * much was redacted.
 */
export interface SecretFinding {
  file: string;
  line: number;
  rule: string;
  kind: string;
  length: number;
}

/** Added content larger than this per file is not scanned (reported as a warning instead). */
export const MAX_SCAN_BYTES_PER_FILE = 2 * 1024 * 1024;

/** Files that are never scanned: lockfiles are hashes and URLs, and secretlint's own fixtures would always match. */
const SKIPPED =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock)$/;

type Lint = typeof import('@secretlint/core').lintSource;
type Preset = typeof import('@secretlint/secretlint-rule-preset-recommend').creator;
let engine: Promise<{ lintSource: Lint; preset: Preset }> | undefined;

/** secretlint is loaded on first use, so commands that never scan do not pay for it. */
function loadEngine(): Promise<{ lintSource: Lint; preset: Preset }> {
  engine ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]).then(
    ([core, preset]) => ({
      lintSource: core.lintSource,
      preset: preset.creator,
    }),
  );
  return engine;
}

export interface SecretScanResult {
  findings: SecretFinding[];
  /** Files not scanned (too large), as evidence for a warning. */
  skipped: GuardEvidence[];
}

/**
 * Scans added lines with secretlint's recommended rule set (AWS, GCP,
 * GitHub, npm, Slack, SendGrid, Shopify, OpenAI, Anthropic, Linear, private
 * keys, basic auth and database connection strings). Only the lines a change
 * adds are scanned; consecutive lines stay together so multi-line keys are
 * found, and separate hunks are kept apart by a blank line.
 */
export async function scanSecrets(files: ReadonlyMap<string, readonly AddedLine[]>): Promise<SecretScanResult> {
  const { lintSource, preset } = await loadEngine();
  const findings: SecretFinding[] = [];
  const skipped: GuardEvidence[] = [];
  for (const [file, lines] of files) {
    if (SKIPPED.test(file) || lines.length === 0) continue;
    const { content, lineOf, bytes } = joinLines(lines);
    if (bytes > MAX_SCAN_BYTES_PER_FILE) {
      skipped.push({
        file,
        message: `not scanned for secrets: ${Math.round(bytes / 1024)} KiB added (limit ${MAX_SCAN_BYTES_PER_FILE / 1024} KiB)`,
      });
      continue;
    }
    let result;
    try {
      result = await lintSource({
        source: { filePath: file, content, contentType: 'text' },
        options: {
          config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset }] },
          maskSecrets: true,
          noPhysicFilePath: true,
        },
      });
    } catch (error) {
      // secretlint's own message may quote the content; keep only the error's name.
      throw new Error(`secretlint failed on ${file} (${(error as Error)?.name ?? 'error'})`);
    }
    for (const m of result.messages) {
      if (m.type !== 'message' || m.severity === 'info') continue;
      findings.push({
        file,
        line: lineOf[m.loc.start.line - 1] ?? lines[0]!.line,
        rule: m.ruleId.replace(/^@secretlint\/secretlint-rule-/, ''),
        kind: m.messageId,
        length: Math.max(0, m.range[1] - m.range[0]),
      });
    }
  }
  return { findings, skipped };
}

function joinLines(lines: readonly AddedLine[]): { content: string; lineOf: number[]; bytes: number } {
  const out: string[] = [];
  const lineOf: number[] = [];
  let bytes = 0;
  let previous: number | undefined;
  for (const { line, text } of lines) {
    if (previous !== undefined && line !== previous + 1) {
      out.push('');
      lineOf.push(previous);
    }
    out.push(text);
    lineOf.push(line);
    bytes += text.length + 1;
    previous = line;
  }
  return { content: out.join('\n'), lineOf, bytes };
}

/** Evidence for findings: file, line, rule and the redacted length. The secret itself never leaves this module. */
export function secretEvidence(findings: readonly SecretFinding[], where?: string): GuardEvidence[] {
  return findings.map((f) => ({
    file: f.file,
    line: f.line,
    message: `possible secret (${f.rule}: ${f.kind}) [REDACTED ${f.length} chars]${where ? ` (${where})` : ''}`,
  }));
}
