import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Project } from '../../../src/core/project/project';
import { registryWithBuiltins } from '../../../src/lanes/builtinLanes';
import { loadLaneModules } from '../../../src/lanes/loadLaneModules';
import { openaiServer } from '../../fixtures/openaiServer';
import { makeTempRepo } from '../../helpers/tempRepo';
import { REPO_FILES, toolResultsIn } from './apiLaneHarness';

// examples/gemini-lane, a third-party API lane built on the public toolkit
// only, loaded the way the CLI loads a lane module (`laneModules`) and run
// against a local chat-completions server (Gemini's OpenAI-compatible API
// speaks that format: https://ai.google.dev/gemini-api/docs/openai).

const EXAMPLE = fileURLToPath(new URL('../../../examples/gemini-lane/lane.ts', import.meta.url));
const FAKE_GEMINI_KEY = 'AIzaSy-FAKEKEY-for-tests-0123456789abcdefghij';

describe('the example Gemini lane (examples/gemini-lane, local chat-completions server)', function () {
  this.timeout(30_000);

  it('loads as a lane module, edits the worktree through the agent loop and prices gemini-2.5-flash', async () => {
    const server = await openaiServer([
      {
        turn: { tools: [{ name: 'write_file', input: { path: 'NOTES.md', content: 'from gemini\n' } }] },
        usage: { input: 1000, output: 100 },
      },
      {
        turn: { text: 'Done.', tools: [{ name: 'finish', input: { summary: 'wrote NOTES.md' } }] },
        usage: { input: 1200, output: 50 },
      },
    ]);
    const repo = await makeTempRepo(REPO_FILES);
    try {
      const registry = registryWithBuiltins();
      const warnings: string[] = [];
      await loadLaneModules(registry, repo.dir, [EXAMPLE], (m) => warnings.push(m));
      assert.ok(!warnings.some((w) => w.includes('was not loaded')), warnings.join('\n'));
      assert.equal(registry.get('gemini')?.manifest.displayName, 'Gemini (example lane)');

      const project = await Project.open(repo.dir, {
        registry,
        parentEnv: { PATH: process.env.PATH, HOME: process.env.HOME, GEMINI_API_KEY: FAKE_GEMINI_KEY },
      });
      await project.settings.update((s) => {
        s.defaultLane = 'gemini';
        s.laneSettings.gemini = { baseUrl: `${server.url}/v1`, retry: { initialIntervalMs: 5, jitter: 0 } };
      });
      await project.tasks.add({ title: 'Notes', spec: 'Write NOTES.md.', files: ['NOTES.md'] });
      await project.runQueue();
      const state = await project.state();
      assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
      const run = state.runs[0]!;
      assert.equal(run.summary, 'wrote NOTES.md');
      assert.match(await project.runs.diff('t1.1'), /\+from gemini/);

      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[0]!.body.model, 'gemini-2.5-flash');
      assert.equal(server.requests[0]!.headers.authorization, `Bearer ${FAKE_GEMINI_KEY}`);
      assert.match(toolResultsIn(server.requests[1]!.body)[0]!.text, /NOTES\.md/);
      // The manifest's price for gemini-2.5-flash: $0.30 and $2.50 per million tokens.
      const expected = (2200 * 0.3 + 150 * 2.5) / 1e6;
      assert.ok(Math.abs(run.usage!.costUsd - expected) < 1e-12, `cost ${run.usage!.costUsd} vs ${expected}`);
    } finally {
      await server.stop();
      await repo.cleanup();
    }
  });
});
