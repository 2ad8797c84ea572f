import assert from 'node:assert/strict';
import { optionsOf } from '../../../src/cli/commandSpec';
import { COMMANDS } from '../../../src/cli/commandTable';
import { optionSyntax } from '../../../src/cli/optionSpec';
import { formSyntax } from '../../../src/cli/usageText';
import { runCli } from '../../helpers/runCli';

/** The text with its line breaks and continuation indents taken out, so that wrapped lines compare as one. */
const unwrapped = (text: string): string => text.replace(/\s+/g, ' ');

describe('CLI usage text, generated from the command table', () => {
  it('`switchyard --help` lists every form of every command with its help line (exit 0); no command at all exits 2', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    const flat = unwrapped(help.out);
    for (const spec of COMMANDS) {
      for (const form of spec.forms) {
        assert.ok(
          flat.includes(`${formSyntax(spec.name, form)} ${unwrapped(form.help)}`),
          `${formSyntax(spec.name, form)} — ${form.help}`,
        );
      }
    }
    assert.match(
      help.out,
      /^ {2}run \[--task ID\]… \[--concurrency N\] +resume interrupted runs, then drain the queue/m,
    );
    assert.match(
      help.out,
      /^ {2}canary start --lane L \[--hold-below R\] \[--expand-at-cost R\] \[--window DURATION\] \[--min-samples N\] \[--why TEXT\]$/m,
    );
    const none = await runCli([]);
    assert.equal(none.code, 2);
    assert.equal(none.out, help.out);
  });

  it('no line of the usage is longer than 120 characters', async () => {
    const texts = [
      (await runCli(['help'])).out,
      ...(await Promise.all(COMMANDS.map(async (c) => (await runCli(['help', c.name])).out))),
    ];
    for (const text of texts)
      for (const line of text.split('\n')) assert.ok(line.length <= 120, `${line.length}: ${line}`);
  });

  it('`switchyard help <command>` and `<command> --help` print its forms and every option it takes, with what it means', async () => {
    for (const spec of COMMANDS) {
      const viaHelp = await runCli(['help', spec.name]);
      assert.equal(viaHelp.code, 0, viaHelp.err);
      const flat = unwrapped(viaHelp.out);
      for (const form of spec.forms)
        assert.ok(flat.includes(`switchyard ${formSyntax(spec.name, form)}`), `${spec.name}: ${form.help}`);
      for (const [name, option] of Object.entries(optionsOf(spec))) {
        assert.ok(flat.includes(`${optionSyntax(name, option)}`), `${spec.name} --${name}`);
        assert.ok(flat.includes(unwrapped(option.help)), `${spec.name} --${name}: ${option.help}`);
      }
      const viaFlag = await runCli([spec.name, '--help']);
      assert.equal(viaFlag.code, 0);
      assert.equal(viaFlag.out, viaHelp.out, `${spec.name} --help`);
    }
    const run = (await runCli(['run', '-h'])).out;
    assert.match(run, /^Usage of switchyard run:\n {2}switchyard run \[--task ID\]… \[--concurrency N\]\n/);
    assert.match(run, /^ {2}--concurrency N +at most N runs at once$/m);
    assert.doesNotMatch(run, /--json|--title/, 'only the options run takes');
  });

  it('help for an unknown command is a usage error listing the commands', async () => {
    const r = await runCli(['help', 'frobnicate']);
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown command "frobnicate"; commands: demo, lanes, default-lane, task, /);
  });
});
