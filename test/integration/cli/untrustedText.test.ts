import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildCliBundle } from '../../helpers/cliBundle';
import { makeTempRepo } from '../../helpers/tempRepo';

// The CLI run as a real process on a project whose task titles, specs and lane
// output hold hostile text (test/fixtures/hostileAgent.mjs): nothing it prints
// to a terminal holds an escape byte, a C1 control or a bidi control, and the
// words are still there (bidi controls as visible `<U+202E>` placeholders).

const ESC = '\u001b';
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const AGENT = resolve('test/fixtures/hostileAgent.mjs');
const FAIL_TITLE = 'Docs [fail] [click me](command:workbench.action.terminal.new) photo\u202Egnp.exe';
const OK_TITLE = 'Notes \u2066isolated\u2069 \u202Dtxt.exe';
const SPEC = `Write notes. ${ESC}[31mred${ESC}[0m ${ESC}]8;;https://evil.example${ESC}\\docs${ESC}]8;;${ESC}\\ \u009b1mbold`;

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

describe('CLI output of untrusted text (a real process)', function () {
  this.timeout(180_000);
  let cli: string;
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  const marker = (): string => join(repo.dir, 'marker-never-created');

  const run = async (...args: string[]): Promise<Output> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args, '--repo', repo.dir], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      if (typeof e.code !== 'number') throw error;
      return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  };
  const assertPlain = (what: string, output: Output): void => {
    for (const [stream, text] of [
      ['stdout', output.stdout],
      ['stderr', output.stderr],
    ] as const) {
      const bad = FORBIDDEN.exec(text);
      assert.equal(
        bad,
        null,
        `${what}: ${stream} holds U+${bad?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad?.index}: ` +
          `${JSON.stringify(text.slice(Math.max(0, (bad?.index ?? 0) - 40), (bad?.index ?? 0) + 40))}`,
      );
    }
  };

  before(async function () {
    this.timeout(180_000);
    cli = await buildCliBundle();
    repo = await makeTempRepo();
    const set = await run('lanes', 'set', 'command', `command=${process.execPath} ${AGENT} ${marker()}`);
    assert.equal(set.code, 0, set.stderr);
    for (const title of [FAIL_TITLE, OK_TITLE]) {
      const added = await run('task', 'add', '--title', title, '--spec', SPEC);
      assert.equal(added.code, 0, added.stderr);
      assertPlain('task add', added);
    }
    const queue = await run('run');
    assertPlain('run', queue);
    assert.match(queue.stdout, /t1 FAILED/);
    assert.match(queue.stdout, /t2 DONE/);
  });

  after(async () => {
    await repo?.cleanup();
    if (cli) await rm(dirname(cli), { recursive: true, force: true });
  });

  it('status: titles and failure reasons without escape or bidi bytes, still readable', async () => {
    const status = await run('status');
    assert.equal(status.code, 0, status.stderr);
    assertPlain('status', status);
    assert.ok(
      status.stdout.includes('Docs [fail] [click me](command:workbench.action.terminal.new) photo<U+202E>gnp.exe'),
      status.stdout,
    );
    assert.ok(status.stdout.includes('Notes <U+2066>isolated<U+2069> <U+202D>txt.exe'), status.stdout);
    // The failure reason: the agent's stderr with its colours and OSC 8 link removed, the link's text kept.
    assert.match(
      status.stdout,
      /stderr: error: \[fix\]\(command:workbench\.action\.terminal\.sendSequence\?[^ ]+ \[open a terminal\]\(command:workbench\.action\.terminal\.new\) open docs green photo<U\+202E>gnp\.exe/,
    );
    assert.ok(!existsSync(marker()), 'nothing ran the command in the link');
  });

  it('status --json: the exact strings for a JSON reader, no raw control or bidi byte for the terminal', async () => {
    const json = await run('status', '--json');
    assert.equal(json.code, 0, json.stderr);
    assertPlain('status --json', json);
    assert.match(json.stdout, /\\u202e/);
    const parsed = JSON.parse(json.stdout) as {
      tasks: { spec: { title: string; spec: string } }[];
      runs: { failureReason?: string }[];
    };
    assert.deepEqual(
      parsed.tasks.map((t) => t.spec.title),
      [FAIL_TITLE, OK_TITLE],
    );
    assert.equal(parsed.tasks[0]!.spec.spec, SPEC);
    assert.ok(
      parsed.runs.some((r) => r.failureReason?.includes(`${ESC}[31;1merror`)),
      'the stored reason is the raw evidence',
    );
  });

  it('log, report and diff: lane output and the changed file shown without control bytes', async () => {
    for (const args of [['log', 't1.1'], ['log', 't2.1'], ['report'], ['report', '--trace'], ['diff', 't2.1']]) {
      const output = await run(...args);
      assert.equal(output.code, 0, `${args.join(' ')}: ${output.stderr}`);
      assertPlain(args.join(' '), output);
    }
    const diff = await run('diff', 't2.1');
    assert.match(
      diff.stdout,
      /^\+error: \[fix\]\(command:[^ ]+ \[open a terminal\]\(command:workbench\.action\.terminal\.new\) open docs green photo<U\+202E>gnp\.exe$/m,
    );
    const log = await run('log', 't2.1');
    // The log prints each event as a readable line: escapes and bidirectional controls shown inert, never the bytes.
    assert.match(
      log.stdout,
      /lane +stdout\| .*\[open a terminal\]\(command:workbench\.action\.terminal\.new\).* green photo<U\+202E>gnp\.exe$/m,
      'the lane output line is in the log',
    );
    const report = await run('report');
    assert.ok(report.stdout.includes('photo<U+202E>gnp.exe'), report.stdout);
  });

  it('errors: hostile text in an error message reaches stderr plain', async () => {
    const error = await run('diff', `nope${ESC}[2J${ESC}]8;;command:x${ESC}\\y\u202E`);
    assert.equal(error.code, 1, error.stderr);
    assertPlain('an error', error);
    assert.match(error.stderr, /unknown run "nopey<U\+202E>"/);
  });
});
