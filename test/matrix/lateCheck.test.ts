import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { edit } from './brain';
import {
  allDone,
  fixRequestNames,
  noProcessLeft,
  oneCommitPerTask,
  openCell,
  usageMatches,
  writesInside,
} from './matrixHarness';
import { MATRIX_LANES } from './matrixLanes';

/** The test CI reports failing on the first head (its output, as a node:test run prints it). */
const FAILING_TEST = 'greet is polite in CI';
const CI_OUTPUT = `TAP version 13
# Subtest: greet greets the name
ok 1 - greet greets the name
# Subtest: ${FAILING_TEST}
not ok 2 - ${FAILING_TEST}
  ---
  error: 'Expected "Good day, Ada!", got "Hi, Ada!"'
  ...
1..2
# tests 2
# pass 1
# fail 1
`;

/**
 * Scenario: pull-request mode against the GitHub double (a real bare repository as origin). The base requires the
 * check `ci/test`, which registers only well after the pull request opens; on the first head it fails (naming a
 * test), the fix attempt's push passes it, and the pull request is squash-merged.
 */
describe('scenario matrix: pull-request mode, a required check that registers late', function () {
  this.timeout(150_000);
  for (const lane of MATRIX_LANES) {
    it(`${lane}`, async () => {
      const cell = await openCell(lane, {
        pullRequest: { lateMs: 1_500, failFirst: CI_OUTPUT },
        tasks: [
          {
            tag: 'polite',
            title: 'Greet politely',
            spec: "Make greet in lib/greet.js greet less formally than 'Hello, '.",
            acceptance: 'npm test',
          },
        ],
        behaviours: {
          polite: edit('lib/greet.js', (text, view) =>
            text.replace(/'(Hello|Hi|Good day), '/, view.feedback ? "'Good day, '" : "'Hi, '"),
          ),
        },
      });
      const { checks } = cell;
      try {
        const run = await cell.sy(['run']);
        await checks.that('the run exits 0', () => assert.equal(run.exitCode, 0, `${run.stdout}\n${run.stderr}`));
        await checks.that('the task is DONE', () => allDone(cell));
        await checks.that('the pull request was merged after its late check passed', () => {
          assert.equal(cell.gh!.pulls.length, 1, 'one pull request');
          assert.equal(cell.gh!.pulls[0]!.merged, true, 'merged');
          const main = execFileSync('git', ['show', 'main:lib/greet.js'], { cwd: cell.bare!, encoding: 'utf8' });
          assert.match(main, /'Good day, '/);
        });
        await checks.that("the fix attempt's request names the failing check's test", () =>
          fixRequestNames(cell, 'polite', FAILING_TEST),
        );
        await checks.that('no write outside the run worktree', () => writesInside(cell));
        await checks.that('recorded tokens and cost = what the server answered', () => usageMatches(cell));
        await checks.that('no process left', () => noProcessLeft(cell));
        await checks.that('one commit per task reaches the target', () => oneCommitPerTask(cell, 'main', 1, cell.bare));
        checks.done();
      } finally {
        await cell.cleanup();
      }
    });
  }
});
