import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { killPids, processesIn } from '../helpers/realCodex';
import { until } from '../helpers/until';
import type { Behaviour } from './brain';
import { allDone, noProcessLeft, oneCommitPerTask, openCell, usageMatches, writesInside } from './matrixHarness';
import { MATRIX_LANES } from './matrixLanes';

const FAREWELL = `'use strict';
const { exclaim } = require('exclaim');

function farewell(name) {
  return exclaim('Goodbye, ' + name);
}

module.exports = { farewell };
`;

const FAREWELL_TEST = `'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { farewell } = require('../lib/farewell.js');

test('farewell says goodbye', () => {
  assert.equal(farewell('Ada'), 'Goodbye, Ada!');
});
`;

/**
 * The model writes lib/farewell.js, then its next call hangs once (the owner is killed meanwhile); whoever asks
 * after that gets test/farewell.test.js written where the session says it works, then the end.
 */
function farewellModel(): { behaviour: Behaviour; hung: () => boolean } {
  let hung = false;
  const behaviour: Behaviour = (view) => {
    const lib = view.file('lib/farewell.js');
    if (lib === undefined) return { read: 'lib/farewell.js' };
    if (lib === null) return { write: [{ file: 'lib/farewell.js', content: FAREWELL }] };
    if (!hung) {
      hung = true;
      return { hang: true };
    }
    const test = view.file('test/farewell.test.js');
    if (test === undefined) return { read: 'test/farewell.test.js' };
    if (test === null) return { write: [{ file: 'test/farewell.test.js', content: FAREWELL_TEST }] };
    return { end: 'lib/farewell.js and its test are written.' };
  };
  return { behaviour, hung: () => hung };
}

/**
 * Scenario: `kill -9` of the whole process group of `switchyard run` while the lane waits for the model (what CI
 * runners and `timeout -s KILL` do), then `switchyard run` again, which takes the interrupted run over.
 */
describe('scenario matrix: SIGKILL of the owner mid-run, then run again', function () {
  this.timeout(150_000);
  for (const lane of MATRIX_LANES) {
    it(`${lane}`, async () => {
      const model = farewellModel();
      const cell = await openCell(lane, {
        tasks: [
          {
            tag: 'farewell',
            title: 'Add farewell',
            spec: 'Add lib/farewell.js exporting farewell(name) (uses exclaim), and its test in test/farewell.test.js.',
            acceptance: 'npm test',
          },
        ],
        behaviours: { farewell: model.behaviour },
      });
      const { checks } = cell;
      try {
        const first = cell.sy(['run']);
        await until('the model call that hangs', model.hung, 60_000);
        if (lane === 'claude-code') {
          // Claude Code writes its session transcript on its own schedule; the kill comes once the write is in it
          // (a kill before that is another case: the resumed session would not know the call).
          const transcripts = join(cell.kit.env.CLAUDE_CONFIG_DIR!, 'projects');
          await until(
            "the Write call's result in Claude Code's transcript",
            async () => {
              for (const file of await readdir(transcripts, { recursive: true }).catch(() => [] as string[]))
                if (
                  file.endsWith('.jsonl') &&
                  (await readFile(join(transcripts, file), 'utf8')).includes('tool_use_id')
                )
                  return true;
              return false;
            },
            15_000,
          );
        }
        cell.killGroup(first);
        assert.equal((await first).signal, 'SIGKILL');
        await checks.that('no process left after kill -9 of the owner process group', () => noProcessLeft(cell));
        // What is left is ended here, so that the rest of the scenario can go on.
        killPids(await processesIn(cell.project.root));

        const second = await cell.sy(['run']);
        await checks.that('the second run exits 0', () =>
          assert.equal(second.exitCode, 0, `${second.stdout}\n${second.stderr}`),
        );
        await checks.that('the task is DONE', () => allDone(cell));
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
