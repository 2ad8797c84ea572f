import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formsFor, optionsOf } from '../../../src/cli/commandSpec';
import { COMMANDS, findCommand } from '../../../src/cli/commandTable';
import type { OptionSpec } from '../../../src/cli/optionSpec';
import { parseCommandLine } from '../../../src/cli/parseCommandLine';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

/** What a stack trace looks like in the CLI's output: "    at fn (file:line:col)". */
const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

describe('CLI options per command', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());
  const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir]);

  it('`run --bogus` is a usage error naming the options run takes; nothing is opened or stored', async () => {
    const r = await cli('run', '--bogus');
    assert.equal(r.code, 2);
    assert.match(
      r.err,
      /^switchyard run: unknown option --bogus for run; run takes --task ID, --concurrency N, --backend files\|postgres, --project-name NAME, --repo DIR, --help/,
    );
    assert.doesNotMatch(r.err, STACK_LINE);
    assert.equal(existsSync(join(repo.dir, '.switchyard')), false, 'a usage error opens no project');
  });

  it('`status --concurrency 2` is a usage error: status takes only its own options', async () => {
    const r = await cli('status', '--concurrency', '2');
    assert.equal(r.code, 2);
    assert.match(
      r.err,
      /unknown option --concurrency for status; status takes --json, --all, --finished N, --backend files\|postgres, --project-name NAME, --repo DIR, --help/,
    );
    assert.equal(existsSync(join(repo.dir, '.switchyard')), false);
  });

  it('an option of another subcommand is refused, naming the options of the one given', async () => {
    const report = await cli('canary', 'report', '--lane', 'command');
    assert.equal(report.code, 2);
    assert.match(report.err, /unknown option --lane for canary report; canary report takes --json, /);
    const set = await cli('lanes', 'set', 'command', 'command=true', '--json');
    assert.equal(set.code, 2);
    assert.match(set.err, /unknown option --json for lanes set; lanes set takes --backend/);
    assert.equal((await cli('canary', 'start', '--lane', 'command', '--json')).code, 2);
  });

  it('numbers, durations, ratios, lists and enums are checked, naming the option (exit 2, no stack trace)', async () => {
    const cases: [string[], RegExp][] = [
      [['run', '--concurrency', 'abc'], /^switchyard run: --concurrency takes a whole number, at least 1, not "abc"$/],
      [['run', '--concurrency', '0'], /--concurrency takes a whole number, at least 1, not "0"/],
      [['worker', '--concurrency', '1.5'], /--concurrency takes a whole number, at least 1, not "1\.5"/],
      [['worker', '--poll-ms', '10'], /--poll-ms takes a whole number, at least 50, not "10"/],
      [['worker', '--grace', 'soon'], /--grace takes a number of seconds, at least 0, not "soon"/],
      [
        ['task', 'add', '--title', 'x', '--priority', '101'],
        /--priority takes a whole number from 0 to 100, not "101"/,
      ],
      [
        ['canary', 'start', '--lane', 'command', '--window', '30s'],
        /--window takes a duration of at least 1m, like 90m, 12h or 7d, not "30s"/,
      ],
      [
        ['canary', 'thresholds', '--hold-below', '1.5', '--why', 'x'],
        /--hold-below takes a ratio above 0 and at most 1 \(e\.g\. 0\.7\), not "1\.5"/,
      ],
      [
        ['canary', 'thresholds', '--min-samples', 'many', '--why', 'x'],
        /--min-samples takes a whole number, at least 1, not "many"/,
      ],
      [
        ['experiment', 'dag.json', '--concurrency', '1,x'],
        /--concurrency takes whole numbers from 1 to 64, comma-separated, not "1,x"/,
      ],
      [['guards', '--limit', '0'], /--limit takes a whole number, at least 1, not "0"/],
      [['status', '--backend', 'mysql'], /--backend takes one of files, postgres, not "mysql"/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message, args.join(' '));
      assert.doesNotMatch(r.err, STACK_LINE);
      assert.doesNotMatch(r.err, /NaN/);
    }
    assert.equal(existsSync(join(repo.dir, '.switchyard')), false, 'nothing was opened or stored');
  });

  it('a missing option value is a usage error naming the option', async () => {
    const last = await runCli(['task', 'add', '--title', 'x', '--priority']);
    assert.equal(last.code, 2);
    assert.match(last.err, /^switchyard task: --priority needs a value; see `switchyard help task`$/);
    const before = await cli('task', 'add', '--title');
    assert.equal(before.code, 2);
    assert.match(
      before.err,
      // line-length: data-table, the error message quoted whole, backticks included
      /^switchyard task: --title needs a value \(a value that starts with a dash: --title=-…\); see `switchyard help task`$/,
      // line-length: end
    );
  });

  it('checked values reach the command converted: --window 2h is 7 200 000 ms, --concurrency 2 the number 2', async () => {
    const canary = findCommand('canary')!;
    assert.deepEqual(
      parseCommandLine(canary, ['start', '--lane', 'x', '--window', '2h', '--hold-below', '0.5']).flags,
      { lane: 'x', window: 7_200_000, 'hold-below': 0.5 },
    );
    assert.deepEqual(
      parseCommandLine(findCommand('run')!, ['--concurrency', '2', '--task', 't1', '--task', 't2']).flags,
      { concurrency: 2, task: ['t1', 't2'] },
    );
    assert.deepEqual(parseCommandLine(findCommand('experiment')!, ['d.json', '--concurrency', '1,4']).flags, {
      concurrency: [1, 4],
    });
  });

  it('every option of every form parses with a valid value', () => {
    const sample = (o: OptionSpec): string[] => {
      if (!o.value) return [];
      switch (o.value.kind) {
        case 'int':
          return [String(o.value.min)];
        case 'number':
          return [String(o.value.min)];
        case 'ratio':
          return ['0.5'];
        case 'duration':
          return ['7d'];
        case 'enum':
          return [o.value.values[0]!];
        case 'int-list':
          return [`${o.value.min},${o.value.max}`];
        default:
          return ['value'];
      }
    };
    for (const spec of COMMANDS) {
      for (const form of spec.forms) {
        for (const [name, option] of Object.entries(optionsOf(spec, [form]))) {
          const args = [...(form.sub ? [form.sub] : []), `--${name}`, ...sample(option)];
          assert.doesNotThrow(() => parseCommandLine(spec, args), `switchyard ${spec.name} ${args.join(' ')}`);
        }
      }
    }
  });

  it("every flag in docs/cli.md's and the README's command tables is accepted by its command", async () => {
    const page = await readFile('docs/cli.md', 'utf8');
    const readme = await readFile('README.md', 'utf8');
    const main = readme.slice(readme.indexOf('## Main commands\n'));
    const section = [
      page.slice(page.indexOf('## Commands\n'), page.indexOf('## Options and values\n')),
      main.slice(0, main.indexOf('\n## ', 1)),
    ].join('\n');
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    let checked = 0;
    for (const row of rows) {
      for (const [, snippet] of row.split(' | ')[0]!.matchAll(/`([^`]+)`/g)) {
        const [name, sub] = snippet!.replace(/^switchyard /, '').split(' ');
        const spec = findCommand(name!);
        assert.ok(spec, `docs/cli.md or the README names a command "${name}" the CLI does not have`);
        const accepted = optionsOf(spec, formsFor(spec, sub));
        for (const [, flag] of snippet!.matchAll(/--([a-z-]+)/g)) {
          assert.ok(
            flag! in accepted,
            `\`${snippet}\` (docs/cli.md or README.md) — ${name}${sub ? ` ${sub}` : ''} does not take --${flag}`,
          );
          checked += 1;
        }
      }
    }
    assert.ok(checked > 35, `checked ${checked} documented flags`);
  });
});
