import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { verifyAcceptance } from '../../../src/core/engine/run/verifyAcceptance';
import { failureLeadLines, failureSummary, outputSummary } from '../../../src/core/text/failureLines';

const MOCHA = resolve(__dirname, '../../../node_modules/mocha/bin/mocha.js');

/** Runs a command in `cwd` with HOME and npm's cache in the temp folder; its output, stdout and stderr together. */
function run(cwd: string, file: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(file, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, npm_config_cache: join(cwd, '.npm'), NO_COLOR: '1', ...env },
  });
  assert.notEqual(r.status, 0, `${file} ${args.join(' ')} was meant to fail:\n${r.stdout}${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

describe('failure lead lines', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sy-failure-lines-'));
    await writeFile(
      join(dir, 'math.test.mjs'),
      [
        "import test from 'node:test';",
        "import assert from 'node:assert/strict';",
        "test('adds', () => assert.equal(1 + 1, 2));",
        "test('deep equal of arrays', () => assert.deepEqual([1, 2], [1, 3]));",
        "test('throws', () => { throw new Error('boom here'); });",
        '',
      ].join('\n'),
    );
    await writeFile(
      join(dir, 'math.spec.js'),
      [
        "const assert = require('node:assert/strict');",
        "describe('math', () => {",
        "  it('adds', () => assert.equal(1 + 1, 2));",
        "  it('deep equal of arrays', () => assert.deepEqual([1, 2], [1, 3]));",
        "  it('throws', () => { throw new Error('boom here'); });",
        '});',
        '',
      ].join('\n'),
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('node:test, TAP reporter (the default when piped in Node 20): the failing test and its error', function () {
    const out = run(dir, process.execPath, ['--test', 'math.test.mjs']);
    const lead = failureLeadLines(out);
    assert.equal(lead[0], 'not ok 2 - deep equal of arrays');
    assert.ok(
      lead.some((l) => /^location: '.*math\.test\.mjs:4:1'$/.test(l)),
      lead.join('\n'),
    );
    assert.ok(lead.includes('Expected values to be strictly deep-equal:'), lead.join('\n'));
  });

  it('node:test, spec reporter: the failing test and its assertion', function () {
    const out = run(dir, process.execPath, ['--test', '--test-reporter=spec', 'math.test.mjs']);
    const lead = failureLeadLines(out);
    assert.match(lead[0]!, /^✖ deep equal of arrays \([\d.]+ms\)$/);
    assert.match(lead[1]!, /^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly deep-equal:/);
    assert.ok(!lead.some((l) => l.startsWith('at ')), 'no stack frames');
  });

  it("an acceptance command's failure reason leads with the failing test, then the runner's totals", async function () {
    const env = { PATH: process.env.PATH ?? '', HOME: dir };
    const verdict = await verifyAcceptance('node --test --test-reporter=spec math.test.mjs', dir, env, 60_000);
    assert.equal(verdict.ok, false);
    const reason = verdict.ok ? '' : verdict.reason;
    assert.match(
      reason,
      /^acceptance command `node --test --test-reporter=spec math\.test\.mjs` exited with code 1: ✖ deep equal of/,
    );
    assert.match(reason, /AssertionError \[ERR_ASSERTION\]: Expected values to be strictly deep-equal:/);
    assert.match(reason, / … .*Error: boom here$/, 'then the end of the output, without its stack frames');
  });

  it('mocha: the first failure of its report (not its progress list), with the assertion', function () {
    const out = run(dir, process.execPath, [MOCHA, '--no-config', 'math.spec.js']);
    const lead = failureLeadLines(out);
    assert.deepEqual(lead.slice(0, 3), [
      '1) math',
      'deep equal of arrays:',
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
    ]);
    const summary = failureSummary(out);
    assert.match(summary, /^1\) math \| deep equal of arrays: \| AssertionError/);
  });

  it("npm ci without a lockfile: npm's cause, not its usage text", function () {
    const project = join(dir, 'no-lock');
    spawnSync('mkdir', ['-p', project]);
    spawnSync('sh', ['-c', `echo '{"name":"x","version":"1.0.0","dependencies":{"ms":"^2.1.3"}}' > package.json`], {
      cwd: project,
    });
    const out = run(project, 'npm', ['ci']);
    const lead = failureLeadLines(out);
    assert.equal(lead[0], 'npm error code EUSAGE');
    assert.match(lead.join(' '), /can only install with an existing package-lock\.json/);
    assert.ok(!lead.some((l) => /Usage:|--install-strategy/.test(l)), lead.join('\n'));
  });

  it('npm ci --offline with a cold cache: ENOTCACHED and the request', async function () {
    const project = join(dir, 'offline');
    spawnSync('mkdir', ['-p', project]);
    await writeFile(join(project, 'package.json'), '{"name":"x","version":"1.0.0","dependencies":{"ms":"^2.1.3"}}\n');
    await writeFile(
      join(project, 'package-lock.json'),
      JSON.stringify({
        name: 'x',
        version: '1.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'x', version: '1.0.0', dependencies: { ms: '^2.1.3' } },
          'node_modules/ms': {
            version: '2.1.3',
            resolved: 'https://registry.npmjs.org/ms/-/ms-2.1.3.tgz',
            integrity:
              'sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==',
          },
        },
      }),
    );
    const out = run(project, 'npm', ['ci', '--offline']);
    const lead = failureLeadLines(out);
    assert.equal(lead[0], 'npm error code ENOTCACHED');
    assert.match(lead[1]!, /cache mode is 'only-if-cached' but no cached response is available/);
  });

  // Runners not installed here: their documented output, with its source.
  const documented: { runner: string; source: string; output: string; lead: string[] }[] = [
    {
      runner: 'uvu',
      // lukeed/uvu src/index.js format(): `  ` + ' FAIL ' + ` "name"` then `    message  (operator)`; kleur prints
      // no colour when not a TTY. The summary lines are its `Total:` / `Passed:` / `Skipped:` / `Duration:`.
      source: 'lukeed/uvu src/index.js',
      output: [
        'tests/index.js',
        '• • ✘   (2 / 3)',
        '',
        '   FAIL  "deep equal of nested arrays"',
        '    Expected values to be deeply equal:  (equal)',
        '',
        '        ++[1, [2, 3]]    (Expected)',
        '        --[1, [2, 4]]    (Actual)',
        '',
        '    at assert (file:///p/node_modules/uvu/assert/index.mjs:31:8)',
        '',
        '  Total:     46',
        '  Passed:    45',
        '  Skipped:   0',
        '  Duration:  12.34ms',
      ].join('\n'),
      lead: [
        'FAIL  "deep equal of nested arrays"',
        'Expected values to be deeply equal:  (equal)',
        '++[1, [2, 3]]    (Expected)',
        '--[1, [2, 4]]    (Actual)',
      ],
    },
    {
      runner: 'jest',
      // Jest's default reporter: ` FAIL  file`, the `✕` list, then `  ● describe › test` and the matcher's message
      // (jestjs.io/docs/expect shows the message; e2e/__tests__/__snapshots__/failures.test.ts.snap the layout).
      source: 'jestjs/jest e2e failures snapshots',
      output: [
        ' FAIL  __tests__/sum.test.js',
        '  sum',
        '    ✕ adds 1 + 2 to equal 3 (5 ms)',
        '',
        '  ● sum › adds 1 + 2 to equal 3',
        '',
        '    expect(received).toBe(expected) // Object.is equality',
        '',
        '    Expected: 3',
        '    Received: 4',
        '',
        '      3 | test("adds 1 + 2 to equal 3", () => {',
        '',
        '      at Object.toBe (__tests__/sum.test.js:4:20)',
        '',
        'Tests:       1 failed, 1 total',
      ].join('\n'),
      lead: [
        '● sum › adds 1 + 2 to equal 3',
        'expect(received).toBe(expected) // Object.is equality',
        'Expected: 3',
        'Received: 4',
        '3 | test("adds 1 + 2 to equal 3", () => {',
      ],
    },
    {
      runner: 'vitest',
      // Vitest's default reporter: the `×` list, then `⎯⎯ Failed Tests 1 ⎯⎯` and ` FAIL  file > suite > test` with the
      // error and its diff (vitest.dev/guide/cli and the reporter's snapshots in vitest-dev/vitest test/reporters).
      source: 'vitest-dev/vitest test/reporters snapshots',
      output: [
        ' ❯ test/math.test.ts (2 tests | 1 failed) 4ms',
        '   × math > adds 2ms',
        '',
        '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
        '',
        ' FAIL  test/math.test.ts > math > adds',
        'AssertionError: expected 4 to be 3 // Object.is equality',
        '',
        '- Expected',
        '+ Received',
        '',
        ' ❯ test/math.test.ts:5:17',
        '',
        ' Test Files  1 failed (1)',
        '      Tests  1 failed | 1 passed (2)',
      ].join('\n'),
      lead: [
        'FAIL  test/math.test.ts > math > adds',
        'AssertionError: expected 4 to be 3 // Object.is equality',
        '- Expected',
        '+ Received',
        '❯ test/math.test.ts:5:17',
      ],
    },
    {
      runner: 'pytest',
      // pytest's report: a `___ test ___` section with `E` lines, then "short test summary info" with
      // `FAILED path::test - message` (docs.pytest.org, "How to handle test failures" and its -r examples).
      source: 'docs.pytest.org usage examples',
      output: [
        '============================= FAILURES =============================',
        '_____________________________ test_add _____________________________',
        '',
        '    def test_add():',
        '>       assert add(1, 1) == 3',
        'E       assert 2 == 3',
        '',
        'tests/test_math.py:4: AssertionError',
        '===================== short test summary info ======================',
        'FAILED tests/test_math.py::test_add - assert 2 == 3',
        '==================== 1 failed, 3 passed in 0.02s ====================',
      ].join('\n'),
      lead: ['FAILED tests/test_math.py::test_add - assert 2 == 3'],
    },
    {
      runner: 'pytest without -r summary',
      source: 'docs.pytest.org usage examples',
      output: [
        '============================= FAILURES =============================',
        '_____________________________ test_add _____________________________',
        '',
        '    def test_add():',
        '>       assert add(1, 1) == 3',
        'E       assert 2 == 3',
        '',
        'tests/test_math.py:4: AssertionError',
        '==================== 1 failed, 3 passed in 0.02s ====================',
      ].join('\n'),
      lead: [
        '_____________________________ test_add _____________________________',
        '>       assert add(1, 1) == 3',
        'E       assert 2 == 3',
        'tests/test_math.py:4: AssertionError',
      ],
    },
    {
      runner: 'go test',
      // `go test`: `--- FAIL: TestName (0.00s)` then t.Errorf's indented `file:line: message`
      // (pkg.go.dev/testing, "go help testflag").
      source: 'pkg.go.dev/testing',
      output: [
        '--- FAIL: TestAdd (0.00s)',
        '    math_test.go:9: Add(1, 1) = 2, want 3',
        'FAIL',
        'FAIL\texample.com/math\t0.002s',
        'FAIL',
      ].join('\n'),
      lead: ['--- FAIL: TestAdd (0.00s)', 'math_test.go:9: Add(1, 1) = 2, want 3'],
    },
    {
      runner: 'cargo test',
      // libtest's output: `failures:`, `---- name stdout ----`, the panic and assert_eq!'s left/right
      // (doc.rust-lang.org/book/ch11-01-writing-tests.html).
      source: 'doc.rust-lang.org/book ch11-01',
      output: [
        'running 2 tests',
        'test tests::exploration ... ok',
        'test tests::another ... FAILED',
        '',
        'failures:',
        '',
        '---- tests::another stdout ----',
        "thread 'tests::another' panicked at src/lib.rs:17:9:",
        'assertion `left == right` failed',
        '  left: 4',
        ' right: 5',
        'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
        '',
        'failures:',
        '    tests::another',
        '',
        'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      ].join('\n'),
      lead: [
        '---- tests::another stdout ----',
        "thread 'tests::another' panicked at src/lib.rs:17:9:",
        'assertion `left == right` failed',
        'left: 4',
        'right: 5',
        'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
      ],
    },
  ];
  for (const sample of documented) {
    it(`${sample.runner} (${sample.source})`, function () {
      assert.deepEqual(failureLeadLines(sample.output), sample.lead);
    });
  }

  it('colour escapes are gone, and output without an error line leads with nothing but its tail', function () {
    assert.deepEqual(failureLeadLines('\u001b[31m✖ colours (1ms)\u001b[39m\n  Error: red\n'), [
      '✖ colours (1ms)',
      'Error: red',
    ]);
    assert.deepEqual(failureLeadLines('all quiet\n'), []);
    assert.equal(failureSummary('one\ntwo\nthree\nfour\n'), 'two | three | four');
  });

  it("a passing run's summary is its last paragraph whole (the pull request's test line is not cut)", function () {
    const uvu = [
      '• • •   (3 / 3)',
      '',
      '  Total:     46',
      '  Passed:    46',
      '  Skipped:   0',
      '  Duration:  1.20ms',
      '',
    ];
    assert.equal(outputSummary(uvu.join('\n')), 'Total:     46 | Passed:    46 | Skipped:   0 | Duration:  1.20ms');
    assert.equal(outputSummary('\u001b[32m  3 passing (13ms)\u001b[39m\n'), '3 passing (13ms)');
  });

  it("uvu's reason names the failing test, not only its totals (the reported case)", function () {
    const uvu = documented[0]!.output;
    assert.match(failureSummary(uvu), /^FAIL {2}"deep equal of nested arrays" \| Expected values/);
    assert.match(failureSummary(uvu), / … Passed: {4}45 \| Skipped: {3}0 \| Duration: {2}12\.34ms$/);
  });
});
