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

/**
 * Scenario: two tasks change the same line of greet (one says "Hi", one trims the name), run at concurrency 2 from
 * the same base. Whichever integrates second conflicts; its retry must start on the target's head (which holds the
 * other change), where the model, reading the file there, makes its change on top of the other one.
 */
describe('scenario matrix: two parallel tasks conflict on one function', function () {
  this.timeout(150_000);
  for (const lane of MATRIX_LANES) {
    it(`${lane}`, async () => {
      const cell = await openCell(lane, {
        tasks: [
          {
            tag: 'hi',
            title: 'Greet with Hi',
            spec: "Make greet in lib/greet.js say 'Hi, ' instead of 'Hello, '.",
            acceptance: 'npm test',
          },
          {
            tag: 'trim',
            title: 'Trim the name',
            spec: 'Make greet in lib/greet.js trim the name before greeting.',
            acceptance: 'npm test',
          },
        ],
        behaviours: {
          hi: edit('lib/greet.js', (text) => text.replace("'Hello, ' + name", "'Hi, ' + name")),
          trim: edit('lib/greet.js', (text) => text.replace('+ name)', '+ name.trim())')),
        },
      });
      const { checks } = cell;
      try {
        const run = await cell.sy(['run', '--concurrency', '2']);
        const s = cell.state();
        const conflicted = s.runs.find((r) => r.failureCode === 'merge-conflict');
        // Not a check of Switchyard: without a conflict the scenario did not happen.
        assert.ok(
          conflicted,
          `a merge conflict: runs ${s.runs.map((r) => `${r.id} ${r.state} ${r.failureCode ?? ''}`).join(', ')}`,
        );
        const other = s.runs.find((r) => r.taskId !== conflicted.taskId && r.integration);
        const retry = s.runs.find((r) => (r as { parentRunId?: string }).parentRunId === conflicted.id);
        const tag = cell.taskId('hi') === conflicted.taskId ? 'hi' : 'trim';
        await checks.that('the run exits 0', () => assert.equal(run.exitCode, 0, `${run.stdout}\n${run.stderr}`));
        await checks.that('both tasks are DONE', () => allDone(cell));
        await checks.that("the retry's base is the target's head at its start", () => {
          assert.ok(other, 'the other task was integrated');
          assert.ok(retry, `a retry of ${conflicted.id}`);
          assert.equal(
            retry.baseCommit,
            other.integration!.commit,
            `${retry.id} started at ${retry.baseCommit.slice(0, 12)}; switchyard/integration was at ${other.integration!.commit.slice(0, 12)} (${other.id} merged) ` +
              `(resumeFrom ${JSON.stringify(retry.resumeFrom ?? null)})`,
          );
          if (retry.headCommit) {
            const onTop = execFileSync(
              'git',
              ['merge-base', '--is-ancestor', other.integration!.commit, retry.headCommit],
              { cwd: cell.project.dir, stdio: 'pipe' },
            );
            assert.ok(onTop !== undefined);
          }
        });
        await checks.that('the target holds both changes', () => {
          const greet = execFileSync('git', ['show', 'switchyard/integration:lib/greet.js'], {
            cwd: cell.project.dir,
            encoding: 'utf8',
            stdio: 'pipe',
          });
          const line = greet.split('\n').find((l) => l.includes('return')) ?? greet;
          assert.match(greet, /exclaim\('Hi, ' \+ name\.trim\(\)\)/, `the target's greet: ${line.trim()}`);
        });
        await checks.that("the retry's request names the conflicting file", () =>
          fixRequestNames(cell, tag, 'lib/greet.js'),
        );
        await checks.that('no write outside the run worktree', () => writesInside(cell));
        await checks.that('recorded tokens and cost = what the server answered', () => usageMatches(cell));
        await checks.that('no process left', () => noProcessLeft(cell));
        await checks.that('one commit per task reaches the target', () =>
          oneCommitPerTask(cell, 'switchyard/integration', 2),
        );
        checks.done();
      } finally {
        await cell.cleanup();
      }
    });
  }
});
