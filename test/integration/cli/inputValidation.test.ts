import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

function cli(...args: string[]) {
  return runCli(args);
}

/** What a stack trace looks like in the CLI's output: "    at fn (file:line:col)". */
const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

describe('CLI input validation', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  async function storedTasks(): Promise<unknown[]> {
    const status = await cli('status', '--json', '--repo', repo.dir);
    assert.equal(status.code, 0, status.err);
    return JSON.parse(status.out).tasks;
  }

  it('refuses a title of two lines, and one with a control character, storing nothing', async () => {
    const twoLines = await cli('task', 'add', '--title', 'Fix the parser\nand the lexer', '--repo', repo.dir);
    assert.equal(twoLines.code, 1);
    assert.match(
      twoLines.err,
      /task: title: a title is one line; this one has a line break at character 15 \(put the details in the spec\)/,
    );
    assert.doesNotMatch(twoLines.err, STACK_LINE);
    const crlf = await cli('task', 'add', '--title', 'a\r\nb', '--repo', repo.dir);
    assert.match(crlf.err, /line break at character 2/);
    const esc = await cli('task', 'add', '--title', 'red \u001b[31mtext', '--repo', repo.dir);
    assert.equal(esc.code, 1);
    assert.match(esc.err, /control character U\+001B at character 5/);
    const file = join(repo.dir, 'tasks.json');
    await writeFile(file, JSON.stringify([{ title: 'fine' }, { title: 'two\u2028lines' }]));
    const fromFile = await cli('task', 'add', '--from', file, '--repo', repo.dir);
    assert.equal(fromFile.code, 1);
    assert.match(fromFile.err, /tasks\.json #2: title: a title is one line/);
    assert.deepEqual(await storedTasks(), []);
    // A trailing newline (as from `$(cat title.txt)`) is trimmed, not refused.
    const trailing = await cli('task', 'add', '--title', 'One line\n', '--repo', repo.dir);
    assert.equal(trailing.code, 0, trailing.err);
    assert.match(trailing.out, /added t1 One line \(READY\)/);
  });

  it('refuses target files outside the repository or absolute, naming the file; stores normalized relative paths', async () => {
    for (const [file, why] of [
      ['../../etc/passwd', /files\.0: "\.\.\/\.\.\/etc\/passwd" points outside the repository/],
      [
        '/etc/passwd',
        /files\.0: "\/etc\/passwd" is an absolute path; target files are relative to the repository root/,
      ],
      ['src/../../x', /"src\/\.\.\/\.\.\/x" points outside the repository/],
      ['..\\..\\windows\\system32', /points outside the repository/],
      ['C:\\Windows\\win.ini', /is an absolute path/],
    ] as const) {
      const r = await cli('task', 'add', '--title', 'x', '--file', 'src/a.txt', '--file', file, '--repo', repo.dir);
      assert.equal(r.code, 1, `${file}: ${r.out}`);
      assert.match(r.err, new RegExp(why.source.replace('files\\.0', 'files\\.1')), file);
    }
    assert.deepEqual(await storedTasks(), []);
    const ok = await cli(
      'task',
      'add',
      '--title',
      'x',
      '--file',
      './src//a.txt',
      '--file',
      'docs/../README.md',
      '--repo',
      repo.dir,
    );
    assert.equal(ok.code, 0, ok.err);
    const [task] = (await storedTasks()) as { spec: { files: string[] } }[];
    assert.deepEqual(task!.spec.files, ['src/a.txt', 'README.md']);
  });

  it('refuses a spec file and a task file that are not UTF-8, naming the byte offset', async () => {
    const spec = join(repo.dir, 'spec.md');
    // "Résumé" in Latin-1: the é is the single byte 0xE9, at byte offset 1 of line 2.
    await writeFile(spec, Buffer.concat([Buffer.from('first line\nR'), Buffer.from([0xe9]), Buffer.from('sum\n')]));
    const r = await cli('task', 'add', '--title', 'latin-1 spec', '--spec-file', spec, '--repo', repo.dir);
    assert.equal(r.code, 1);
    assert.ok(r.err.includes(spec), r.err);
    assert.match(r.err, /is not UTF-8 text: byte 0xE9 at byte offset 12 \(line 2\) is not valid UTF-8/);
    const tasks = join(repo.dir, 'tasks.json');
    // Valid UTF-8 up to a sequence cut short: "é" is C3 A9; C3 followed by a quote is invalid at the C3.
    await writeFile(
      tasks,
      Buffer.concat([Buffer.from('[{"title": "caf\u00e9 '), Buffer.from([0xc3]), Buffer.from('"}]')]),
    );
    const t = await cli('task', 'add', '--from', tasks, '--repo', repo.dir);
    assert.equal(t.code, 1);
    assert.match(t.err, /tasks\.json is not UTF-8 text: byte 0xC3 at byte offset 18 \(line 1\)/);
    assert.deepEqual(await storedTasks(), []);
    // A UTF-8 spec with a byte-order mark is accepted, the mark dropped.
    await writeFile(spec, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Résumé ✓\n')]));
    const ok = await cli('task', 'add', '--title', 'utf-8 spec', '--spec-file', spec, '--repo', repo.dir);
    assert.equal(ok.code, 0, ok.err);
    assert.equal(((await storedTasks()) as { spec: { spec: string } }[])[0]!.spec.spec, 'Résumé ✓\n');
  });

  it("lanes set checks each value against the lane's documented settings: exit 2 naming the key and type, nothing stored", async () => {
    const stored = async () =>
      JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8')).settings.laneSettings;
    const ok = await cli(
      'lanes',
      'set',
      'command',
      'command=echo hi',
      'timeoutMs=600000',
      'env=["MY_TOKEN"]',
      '--repo',
      repo.dir,
    );
    assert.equal(ok.code, 0, ok.err);
    assert.deepEqual(await stored(), { command: { command: 'echo hi', timeoutMs: 600000, env: ['MY_TOKEN'] } });

    const cases: [string[], RegExp][] = [
      [
        ['timeoutMs="abc"'],
        /lane "command" setting "timeoutMs" takes a whole number, e\.g\. 600000 \(type integer\), not "\\"abc\\""/,
      ],
      [['timeoutMs=abc'], /setting "timeoutMs" takes a whole number.*not "abc"/],
      [['timeoutMs=1.5'], /setting "timeoutMs" takes a whole number/],
      [
        ['env=MY_TOKEN'],
        /setting "env" takes a JSON list of strings, e\.g\. \["a","b"\] \(type string\[\]\), not "MY_TOKEN"/,
      ],
      [['env=[1,2]'], /setting "env" takes a JSON list of strings/],
      [['comand=true'], /lane "command" has no setting "comand"; its settings: command, reviewCommand, timeoutMs, env/],
      // One bad pair of several: none of them is stored.
      [['command=echo changed', 'timeoutMs=soon'], /setting "timeoutMs" takes a whole number/],
    ];
    for (const [pairs, message] of cases) {
      const r = await cli('lanes', 'set', 'command', ...pairs, '--repo', repo.dir);
      assert.equal(r.code, 2, `${pairs.join(' ')}: ${r.out}`);
      assert.match(r.err, message);
      assert.doesNotMatch(r.err, STACK_LINE);
      assert.doesNotMatch(r.err, /^Usage:/m, 'a wrong value is not a reason to print the whole usage');
    }
    assert.deepEqual(
      await stored(),
      { command: { command: 'echo hi', timeoutMs: 600000, env: ['MY_TOKEN'] } },
      'nothing was stored by the refused calls',
    );

    const api = await cli('lanes', 'set', 'anthropic', 'maxTaskCostUsd=cheap', '--repo', repo.dir);
    assert.equal(api.code, 2);
    assert.match(
      api.err,
      /lane "anthropic" setting "maxTaskCostUsd" takes a number, e\.g\. 2\.5 \(type number\), not "cheap"/,
    );
    const cliLane = await cli('lanes', 'set', 'claude-code', 'extraArgs=--verbose', '--repo', repo.dir);
    assert.equal(cliLane.code, 2);
    assert.match(cliLane.err, /lane "claude-code" setting "extraArgs" takes a JSON list of strings/);
  });

  it('a string setting keeps the text as typed: command=true is the command `true`, command=123 the text "123"', async () => {
    assert.equal(
      (await cli('lanes', 'set', 'command', 'command=true', 'reviewCommand=123', '--repo', repo.dir)).code,
      0,
    );
    const settings = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8')).settings
      .laneSettings.command;
    assert.deepEqual(settings, { command: 'true', reviewCommand: '123' });
    assert.equal(typeof settings.command, 'string');
    assert.equal((await cli('lanes', 'set', 'command', 'command={"not": "json"}', '--repo', repo.dir)).code, 0);
    assert.equal(
      JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8')).settings.laneSettings.command
        .command,
      '{"not": "json"}',
    );
    await cli('task', 'add', '--title', 'runs true', '--repo', repo.dir);
    assert.equal((await cli('lanes', 'set', 'command', 'command=true', '--repo', repo.dir)).code, 0);
    const run = await cli('run', '--repo', repo.dir);
    assert.equal(run.code, 0, run.err + run.out);
    assert.match(run.out, /t1 DONE/);
  });

  it('lanes set usage errors exit 2 without a stack trace', async () => {
    const word = await cli('lanes', 'set', 'command', 'justaword', '--repo', repo.dir);
    assert.equal(word.code, 2);
    assert.match(
      word.err,
      /switchyard lanes: "justaword" is not key=value: switchyard lanes set command key=value…, e\.g\. timeoutMs=600000/,
    );
    assert.doesNotMatch(word.err, STACK_LINE);
    const none = await cli('lanes', 'set', 'command', '--repo', repo.dir);
    assert.equal(none.code, 2);
    assert.match(none.err, /missing key=value/);
    const cap = await cli('lanes', 'cap', 'command', 'lots', '--repo', repo.dir);
    assert.equal(cap.code, 2);
    assert.match(cap.err, /whole number from 1 to 20, not "lots"/);
    assert.doesNotMatch(cap.err, STACK_LINE);
    const settings = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8')).settings;
    assert.deepEqual(settings.laneSettings, {});
    assert.deepEqual(settings.retryCaps, {});
  });

  it('numeric flags are checked before anything runs or is stored (exit 2, no stack trace)', async () => {
    await cli('task', 'add', '--title', 'waits', '--repo', repo.dir);
    const run = await cli('run', '--concurrency', 'abc', '--repo', repo.dir);
    assert.equal(run.code, 2);
    assert.match(run.err, /--concurrency takes a whole number, at least 1, not "abc"/);
    const priority = await cli('task', 'add', '--title', 'x', '--priority', 'high', '--repo', repo.dir);
    assert.equal(priority.code, 2);
    assert.match(priority.err, /--priority takes a whole number from 0 to 100, not "high"/);
    for (const r of [run, priority]) assert.doesNotMatch(r.err, STACK_LINE);
    const tasks = (await storedTasks()) as { state: string }[];
    assert.deepEqual(
      tasks.map((t) => t.state),
      ['READY'],
      'nothing ran, nothing was added',
    );
  });

  it('an unexpected error prints its message without a stack trace (SWITCHYARD_DEBUG=1 shows it)', async () => {
    // A trusted-workspaces file that is not a list makes `trust` fail with a plain Error.
    // The CLI gets its environment from main(): this process's own is not touched.
    const home = join(repo.dir, 'home');
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), SWITCHYARD_DEBUG: '' };
    await mkdir(join(home, '.config', 'switchyard'), { recursive: true });
    await writeFile(join(home, '.config', 'switchyard', 'trusted-workspaces.json'), '{"not": "a list"}');
    const r = await runCli(['trust', '--repo', repo.dir], { env });
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /is not a list of trusted workspaces; fix or remove it \(set SWITCHYARD_DEBUG=1 for the stack trace\)/,
    );
    assert.doesNotMatch(r.err, STACK_LINE);
    assert.match(
      (await runCli(['trust', '--repo', repo.dir], { env: { ...env, SWITCHYARD_DEBUG: '1' } })).err,
      STACK_LINE,
    );
  });

  it('lists each setting with its type', async () => {
    const r = await cli('lanes', '--repo', repo.dir);
    assert.match(r.out, /^ {2}command \(string, required\): /m);
    assert.match(r.out, /^ {2}timeoutMs \(integer\): /m);
    assert.match(r.out, /^ {2}env \(string\[\]\): /m);
  });

  it('keeps one backup per damaged state file, however often it is read; a newer state says so', async () => {
    await cli('task', 'add', '--title', 'keep me', '--repo', repo.dir);
    const dir = join(repo.dir, '.switchyard');
    const file = join(dir, 'state.json');
    await writeFile(file, '{"version": 1, "tasks": [');
    for (let i = 0; i < 4; i += 1) {
      const r = await cli('status', '--repo', repo.dir);
      assert.equal(r.code, 1);
      assert.match(r.err, /state\.json is not valid JSON/);
      assert.doesNotMatch(r.err, / is does /);
    }
    const backups = async () => (await readdir(dir)).filter((f) => f.includes('.corrupt-'));
    assert.equal((await backups()).length, 1, (await backups()).join(', '));
    assert.equal(await readFile(join(dir, (await backups())[0]!), 'utf8'), '{"version": 1, "tasks": [');
    await writeFile(file, '{"version": 1, "tasks": [{');
    await cli('status', '--repo', repo.dir);
    await cli('status', '--repo', repo.dir);
    assert.equal((await backups()).length, 2, 'a different damage gets its own copy, once');

    await writeFile(
      file,
      JSON.stringify({ version: 7, settings: {}, tasks: [], runs: [], nextTaskNumber: 1, somethingNew: true }),
    );
    const newer = await cli('status', '--repo', repo.dir);
    assert.equal(newer.code, 1);
    assert.match(
      newer.err,
      /state\.json was written by a newer Switchyard \(state version 7; this Switchyard reads version 3\)\. Upgrade Switchyard to use this project/,
    );
    assert.doesNotMatch(newer.err, /expected shape/);
    assert.equal((await backups()).length, 2, 'a newer file is not damaged: no copy');
  });
});
