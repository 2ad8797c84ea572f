import { plainText } from './plainText';

/**
 * The lines of a failed command's output that say what failed: the first failing test or assertion for the test
 * runners people use, else the first error line. Each runner's shape comes from its real output (samples in
 * test/fixtures/failureOutput/, with their sources):
 * - node:test, spec reporter (`✖ name (1.2ms)` then the error) and TAP reporter (`not ok 2 - name`, then YAML with
 *   `location:` and `error:`), both from `node --test` 20;
 * - mocha (`N failing`, then `1) suite` / `name:` and the error), from mocha 11;
 * - jest (`● suite › name`), vitest (` FAIL  file > suite > name`, `× name`) and uvu (` FAIL  "name"`);
 * - pytest (`FAILED path::name - message` in the short summary, `E   ` lines in a `___ name ___` section);
 * - go test (`--- FAIL: TestName (0.00s)` then the indented `file_test.go:9:` message);
 * - cargo test (`---- name stdout ----` then `thread '…' panicked at` and the assertion);
 * - otherwise the first error line (`npm error …`, `Error: …`, `error[E0308]: …`), with the lines of the same
 *   prefix that follow (npm's usage text after the cause is cut).
 */
export function failureLeadLines(output: string, max = MAX_LEAD): string[] {
  const lines = plainText(output)
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''));
  // A runner's detailed report starts after its summary header (mocha lists `1) name` twice: first as progress).
  const start = Math.max(
    0,
    lines.findIndex((l) => REPORT_STARTS.some((r) => r.test(l))),
  );
  for (const line of lines.slice(start)) {
    if (ONE_LINERS.some((r) => r.test(line))) return [clip(line.trim())];
  }
  // The most telling marker wins wherever it is (jest's `● name` over its ` FAIL  file` line above it).
  for (const marker of MARKERS) {
    const i = lines.findIndex((l, at) => at >= start && marker.start.test(l));
    if (i < 0) continue;
    const lead = [clip(lines[i]!.trim())];
    for (let j = i + 1; j < lines.length && lead.length < max; j++) {
      const line = lines[j]!;
      if (!line.trim() || NOISE.test(line)) continue;
      if (STACK_FRAME.test(line) || MARKERS.some((m) => m.start.test(line)) || SUMMARY.test(line)) break;
      if (marker.detail && !marker.detail.test(line)) continue;
      lead.push(clip(line.trim()));
    }
    return lead;
  }
  const first = lines.findIndex((l) => ERROR_LINE.test(l) && !BARE_ERROR.test(l));
  if (first < 0) return [];
  const prefix = /^(npm (?:error|ERR!)|error:|ERROR:?)/i.exec(lines[first]!.trim())?.[1];
  const lead = [clip(lines[first]!.trim())];
  let said = !ERROR_CODE.test(lines[first]!);
  for (let j = first + 1; prefix && j < lines.length && lead.length < Math.min(max, 4); j++) {
    const line = lines[j]!.trim();
    if (!line.startsWith(prefix)) break;
    // npm's explanation is one paragraph: it ends at the first bare `npm error` line after it.
    if (!line.slice(prefix.length).trim()) {
      if (said) break;
      continue;
    }
    said = true;
    lead.push(clip(line));
  }
  return lead;
}

/**
 * A failure's text for a reason: the lead lines, then the output's last lines when they add something, joined by
 * ` | `. Empty when the output is.
 */
export function failureSummary(output: string, tailCount = 3): string {
  const lead = failureLeadLines(output);
  const all = plainText(output)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !STACK_FRAME.test(l));
  const tail = all.slice(-tailCount).filter((l) => !lead.includes(clip(l)));
  if (!lead.length) return tail.map(clip).join(' | ');
  return tail.length ? `${lead.join(' | ')} … ${tail.map(clip).join(' | ')}` : lead.join(' | ');
}

/**
 * A passing run's own summary: the output's last paragraph (its last lines up to a blank line), whole, so a runner's
 * totals are never cut in the middle (uvu's Total / Passed / Skipped / Duration, jest's Test Suites … Time), at most
 * `max` lines. ANSI escapes removed.
 */
export function outputSummary(output: string, max = 10): string {
  const lines = plainText(output).trimEnd().split('\n');
  const blank = lines.map((l) => !l.trim()).lastIndexOf(true);
  return lines
    .slice(blank + 1)
    .slice(-max)
    .map((l) => clip(l.trim()))
    .join(' | ');
}

const MAX_LEAD = 6;
const MAX_LINE = 300;

interface Marker {
  /** A line that names a failing test. */
  start: RegExp;
  /** When set, only following lines like this are kept (pytest's source lines are skipped for its `E` lines). */
  detail?: RegExp;
}

const REPORT_STARTS = [
  /^\s*\d+ failing\b/, // mocha
  /^\s*✖ failing tests:/, // node:test spec reporter's recap
  /^=+ FAILURES =+$/, // pytest
  /^failures:$/, // cargo test
  /^\s*⎯+ Failed Tests \d+ ⎯+$/, // vitest
];

/** Lines that say everything at once: pytest's short summary (`FAILED tests/test_a.py::test_add - assert 2 == 3`). */
const ONE_LINERS = [/^FAILED \S+::\S+ - \S/];

const MARKERS: readonly Marker[] = [
  { start: /^\s*✖ (?!failing tests:).+/ }, // node:test spec
  { start: /^\s*not ok \d+ - / }, // node:test TAP (and other TAP producers)
  { start: /^\s{0,4}\d+\) \S/ }, // mocha's report
  { start: /^\s*● (?!Console\b)\S/ }, // jest
  { start: /^_{3,} .+ _{3,}$/, detail: /^(E\s|>\s|\S+:\d+:)/ }, // pytest's section
  { start: /^\s*--- FAIL: / }, // go test
  { start: /^---- .+ stdout ----$/ }, // cargo test
  { start: /^\s*FAIL\s+\S/ }, // vitest, uvu, jest's file line
  { start: /^\s*[×✗✕] \S/ }, // vitest's and jest's lists
];

/** TAP's YAML bookkeeping around a failure: not what failed. */
const NOISE = /^\s*(---|\.\.\.|duration_ms:|failureType:|type: |# Subtest:|code: 'ERR_TEST_FAILURE')/;
const STACK_FRAME = /^\s*(at |stack: \|-?$|\s*\[?\d+\/\d+\]?$)/;
const SUMMARY =
  /^\s*(ℹ |# (tests|pass|fail) |\d+ passing\b|Tests?:\s|Test Files\s|Total:\s|test result:|(FAIL|ok)(\t|$))/;
const ERROR_LINE = /(^|\s|\[)(npm (error|ERR!)|error(\[\w+\])?:|fatal:|\w*(Error|Exception)\b:?|panic:|FATAL|ERROR)/;
/** An error line that says nothing: a bare `npm error`. */
const BARE_ERROR = /^\s*npm (error|ERR!)\s*$/;
/** npm's first line, its error code (`npm error code EUSAGE`): the cause follows. */
const ERROR_CODE = /^\s*npm (error|ERR!) code \S+\s*$/;

function clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}
