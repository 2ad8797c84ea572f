import assert from 'node:assert/strict';
import { edit } from './brain';
import {
  allDone,
  fixRequestNames,
  noProcessLeft,
  oneCommitPerTask,
  openCell,
  usageMatches,
  writesInside,
  type Cell,
} from './matrixHarness';
import { MATRIX_LANES } from './matrixLanes';

/** The test the first attempt breaks: its name is what the fix attempt must be told. */
const FAILING_TEST = 'greet shouts when asked';

const SHOUT_TEST = `'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { greet } = require('../lib/greet.js');

test('greet speaks softly by default', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});

test('${FAILING_TEST}', () => {
  assert.equal(greet('Ada', { shout: true }), 'HELLO, ADA!');
});
`;

/** What a hasty first attempt writes: only the name is shouted. */
const HASTY = `'use strict';
const { exclaim } = require('exclaim');

function greet(name, options = {}) {
  return exclaim('Hello, ' + (options.shout ? name.toUpperCase() : name));
}

module.exports = { greet };
`;

/** What the attempt that was told the failure writes. */
const FIXED = `'use strict';
const { exclaim } = require('exclaim');

function greet(name, options = {}) {
  const text = 'Hello, ' + name;
  return exclaim(options.shout ? text.toUpperCase() : text);
}

module.exports = { greet };
`;

/**
 * Scenario: the acceptance command (`npm test`, node:test) fails after the first attempt; the next attempt, told the
 * failure, fixes it. The model writes the hasty version unless its request carries feedback on a previous attempt.
 */
describe('scenario matrix: acceptance fails, the next attempt fixes it', function () {
  this.timeout(120_000);
  for (const lane of MATRIX_LANES) {
    it(`${lane}`, async () => {
      const cell: Cell = await openCell(lane, {
        files: { 'test/shout.test.js': SHOUT_TEST },
        tasks: [
          {
            tag: 'shout',
            title: 'Let greet shout',
            spec: 'Add an option { shout: true } to greet in lib/greet.js that returns the whole greeting in capitals.',
            acceptance: 'npm test',
          },
        ],
        behaviours: { shout: edit('lib/greet.js', (_text, view) => (view.feedback ? FIXED : HASTY)) },
      });
      const { checks } = cell;
      try {
        const run = await cell.sy(['run']);
        await checks.that('the run exits 0', () => assert.equal(run.exitCode, 0, `${run.stdout}\n${run.stderr}`));
        await checks.that('the task is DONE', () => allDone(cell));
        await checks.that('the first attempt failed its acceptance', () => {
          const first = cell.state().runs[0]!;
          assert.equal(first.failureCode, 'verify-failed', first.failureReason);
        });
        await checks.that("the failed attempt's failure reason names the failing test", () => {
          const reason = cell.state().runs[0]?.failureReason ?? '';
          assert.ok(reason.includes(FAILING_TEST), `the reason was: ${JSON.stringify(reason.slice(0, 300))}`);
        });
        await checks.that("the fix attempt's request names the failing test", () =>
          fixRequestNames(cell, 'shout', FAILING_TEST),
        );
        await checks.that('no write outside the run worktree', () => writesInside(cell));
        await checks.that('recorded tokens and cost = what the server answered', () => usageMatches(cell));
        await checks.that('no process left', () => noProcessLeft(cell));
        await checks.that('one commit per task reaches the target', () =>
          oneCommitPerTask(cell, 'switchyard/integration', 1),
        );
        checks.done();
      } finally {
        await cell.cleanup();
      }
    });
  }
});
