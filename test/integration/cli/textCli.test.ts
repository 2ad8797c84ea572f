import assert from 'node:assert/strict';
import { formatStatus } from '../../../src/cli/format';
import { type ProjectState, emptyProjectState } from '../../../src/core/store/projectState';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('CLI text: lanes advice, report, log', function () {
  this.timeout(60_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  const cli = (...args: string[]) =>
    runCli([...args, '--repo', repo.dir], { env: { PATH: process.env.PATH ?? '', HOME: repo.dir } });
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(() => repo.cleanup());

  it('`lanes` advises a command that exists, and it works as advised', async () => {
    const lanes = await cli('lanes');
    const advice = /\(switchyard (config set secretCommands\.ANTHROPIC_API_KEY '<command>' --local)\)/.exec(lanes.out);
    assert.ok(advice, lanes.out);
    assert.doesNotMatch(lanes.out, /switchyard secrets command/);
    const args = advice[1]!.replace("'<command>'", 'pass show anthropic').split(' ');
    const set = await cli(...args.slice(0, 3), 'pass show anthropic', '--local');
    assert.equal(set.code, 0, set.err);
    assert.match((await cli('config', 'get', 'secretCommands')).out, /"ANTHROPIC_API_KEY": "pass show anthropic"/);
  });

  it('`report` shows each start once; `log` shows output as text without colour escapes', async () => {
    await cli('lanes', 'set', 'command', 'command=printf "\\033[31mred\\033[0m\\n"; echo x > x.txt');
    await cli('task', 'add', '--title', 'a', '--spec', 'a', '--accept', 'printf "\\033[32mgreen\\033[0m\\n"');
    assert.equal((await cli('run')).code, 0);
    const report = await cli('report');
    assert.equal(report.out.match(/ started /g)?.length, 1, report.out);
    const log = (await cli('log', 't1.1')).out;
    assert.match(log, /Z lane {5}stdout\| red$/m);
    assert.match(log, /Z verify {3}passed\n {4}green$/m);
    assert.ok(!log.includes('\u001b') && !log.includes('\\u001b'), 'no escape, raw or JSON-encoded');
    assert.doesNotMatch(log, /"type":"log"/);
  });
});

describe('status ATTEMPTS', () => {
  it("counts the attempts before a retry, as the runs' numbers do", () => {
    const state = emptyProjectState();
    const at = '2026-01-01T00:00:00.000Z';
    state.tasks.push({
      id: 't1',
      spec: { title: 'a', spec: 'a', files: [], dependsOn: [], priority: 50 } as ProjectState['tasks'][number]['spec'],
      state: 'RUNNING',
      baseCommit: 'b'.repeat(40),
      createdAt: at,
      updatedAt: at,
      attempts: 1,
      attemptsBefore: 2,
      generation: 0,
    });
    // The run of this attempt says attempt 3 (newRun: attemptsBefore + attempts).
    assert.match(formatStatus(state), /^t1\s+RUNNING\s+\S+\s+3\s+a$/m);
  });
});
