import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { everyFileUnder, leaks, secretWindows } from '../../helpers/secretWindows';
import { API_LANES, apiLaneProject, runCli, sharedCliBundle } from './apiLaneHarness';

/** A 164-character key in no vendor's format. */
const LONG_KEY = ['api', 'key']
  .map((s) => createHash('sha512').update(s).digest('base64url'))
  .join('')
  .slice(0, 164);

async function everyFile(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, text: await readFile(path, 'utf8').catch(() => '') });
  }
  return out;
}

/**
 * API keys never leave the process that uses them: runs through the real CLI
 * with a known fake key, a server that (badly) echoes it back in an error,
 * in model text and in a summary, then every file under .switchyard/ and
 * every line the CLI printed is searched for it.
 */
describe('API lane secrets', function () {
  this.timeout(60_000);

  for (const c of API_LANES) {
    it(`${c.lane}: the key is sent to the server and found in no journal, log, state or CLI output`, async () => {
      const cli = await sharedCliBundle();
      const t = await apiLaneProject(c, [
        // Task 1: a rate limit whose message quotes the key, a reply that repeats it, a summary with it.
        {
          httpError: {
            status: 429,
            type: 'rate_limit_error',
            message: `rate limit for key ${c.key}`,
            headers: { 'retry-after': '0' },
          },
        },
        {
          turn: {
            text: `I was given the key ${c.key}.`,
            tools: [{ name: 'run_command', input: { command: 'env | sort' } }],
          },
        },
        { turn: { tools: [{ name: 'finish', input: { summary: `used ${c.key}` } }] } },
        // Task 2: refused with the key in the error.
        { httpError: { status: 401, type: 'authentication_error', message: `invalid key ${c.key}` } },
      ]);
      try {
        await t.project.tasks.add({ title: 'one' });
        await t.project.tasks.add({ title: 'two' });
        const env = { [c.keyName]: c.key };
        const run = await runCli(cli, t.repo.dir, ['run', '--concurrency', '1'], env);
        const outputs = [run];
        for (const args of [
          ['status'],
          ['status', '--json'],
          ['log', 't1.1'],
          ['journal', 't1.1'],
          ['journal', 't2.1', '--json'],
          ['log', 't2.1'],
        ])
          outputs.push(await runCli(cli, t.repo.dir, args, env));

        // The key was really used…
        const auth = t.server.requests.map((r) => String(r.headers['x-api-key'] ?? r.headers.authorization ?? ''));
        assert.ok(auth.length === 4 && auth.every((h) => h.includes(c.key)), 'every request carried the key');
        const state = JSON.parse(await readFile(join(t.repo.dir, '.switchyard', 'state.json'), 'utf8'));
        assert.equal(state.tasks[0].state, 'DONE', state.tasks[0].failureReason);
        assert.equal(
          state.tasks[1].failureReason,
          `model call failed after 1 attempt(s): HTTP 401 authentication_error: invalid key [redacted ${c.keyName}] (permanent: auth-invalid)`,
        );

        // …and is nowhere it should not be.
        const files = await everyFile(join(t.repo.dir, '.switchyard'));
        const names = files.map((f) => f.path.slice(t.repo.dir.length + 1));
        for (const expected of [
          'state.json',
          'runs/t1.1/journal.jsonl',
          'runs/t1.1/events.jsonl',
          'runs/t2.1/events.jsonl',
        ])
          assert.ok(names.includes(`.switchyard/${expected}`), `${expected} was searched`);
        const leaks = files.filter((f) => f.text.includes(c.key)).map((f) => f.path);
        assert.deepEqual(leaks, [], 'files under .switchyard/ that contain the key');
        const printed = outputs.map((o) => `${o.stdout}\n${o.stderr}`).join('\n');
        assert.ok(!printed.includes(c.key), 'the CLI printed the key');
        const all = files.map((f) => f.text).join('\n') + printed;
        assert.ok(
          all.includes(`[redacted ${c.keyName}]`),
          'the redaction marker shows the key was there to be redacted',
        );
        // The commands the model runs never see the key: their environment is the allowlist.
        const envOutput = files.find((f) => f.path.endsWith('t1.1/journal.jsonl'))!.text;
        assert.match(envOutput, /PATH=/);
        assert.ok(!envOutput.includes(`${c.keyName}=`), `${c.keyName} is not in the command's environment`);
      } finally {
        await t.cleanup();
      }
    });
  }

  it('anthropic: a 164-character key that run_command echoes in a long output and an error line leaves no piece anywhere, and its file is not merged', async () => {
    const cli = await sharedCliBundle();
    const c = { ...API_LANES[0], key: LONG_KEY };
    // The output is laid out so that its last 20,000 characters (what run_command keeps) start 50 characters before
    // the end of the first copy of the key, the error line (cut at 200) ends inside the second, and the command line
    // (cut at 80) inside the one it names; it is long enough to be clipped once the key is redacted too.
    const command = [
      `K=${LONG_KEY}`,
      `head -c 1000 /dev/zero | tr '\\0' x`,
      `printf 'start\\n%s\\n' "$K"`,
      `head -c 19742 /dev/zero | tr '\\0' y`,
      `printf '\\nError: authentication failed for the key %s\\n' "$K"`,
      `printf 'key=%s\\n' "$K" > leaked.cfg`,
      'exit 1',
    ].join('; ');
    const t = await apiLaneProject(c, [
      { turn: { tools: [{ name: 'run_command', input: { command } }] } },
      { turn: { tools: [{ name: 'finish', input: { summary: 'done' } }] } },
    ]);
    try {
      await t.project.tasks.add({ title: 'echo the key' });
      const env = { [c.keyName]: c.key };
      const outputs = [await runCli(cli, t.repo.dir, ['run', '--concurrency', '1'], env)];
      for (const args of [
        ['status'],
        ['status', '--json'],
        ['log', 't1.1'],
        ['journal', 't1.1'],
        ['journal', 't1.1', '--json'],
        ['diff', 't1.1'],
      ])
        outputs.push(await runCli(cli, t.repo.dir, args, env));

      // The command really ran and printed the key (the file it wrote holds it).
      assert.equal(await t.file('leaked.cfg'), `key=${LONG_KEY}\n`);
      const state = JSON.parse(await readFile(join(t.repo.dir, '.switchyard', 'state.json'), 'utf8'));
      const [task] = state.tasks;
      assert.equal(task.state, 'FAILED', task.failureReason);
      assert.equal(state.runs[0].failureCode, 'policy-violation');
      assert.match(
        task.failureReason,
        /^blocked by guards: secret-scan: leaked\.cfg:1: possible secret \(known-secret: the value of ANTHROPIC_API_KEY, a secret of this run\) \[REDACTED 164 chars\]/,
      );
      const integrated = await t.repo.git('ls-tree', '-r', '--name-only', 'switchyard/integration').catch(() => '');
      assert.ok(!integrated.includes('leaked.cfg'), 'leaked.cfg is not in switchyard/integration');

      // No piece of it anywhere under .switchyard/ but the file the command itself wrote in its worktree (the change
      // that was refused).
      const everything = await everyFileUnder(join(t.repo.dir, '.switchyard'));
      assert.deepEqual(leaks(everything, LONG_KEY), [`${join('worktrees', 't1.1', 'leaked.cfg')} (157 windows)`]);
      const files = await everyFileUnder(join(t.repo.dir, '.switchyard'), ['worktrees']);
      for (const expected of [
        'state.json',
        'runs/t1.1/journal.jsonl',
        'runs/t1.1/events.jsonl',
        'runs/t1.1/diff.patch',
      ])
        assert.ok(
          files.some((f) => f.path === expected),
          `${expected} was searched`,
        );
      assert.deepEqual(leaks(files, LONG_KEY), [], 'files under .switchyard/ holding a piece of the key');
      const printed = outputs.map((o) => `${o.stdout}\n${o.stderr}`).join('\n');
      assert.deepEqual(secretWindows(printed, LONG_KEY), [], 'pieces of the key the CLI printed');
      // The tool's result was journaled, clipped and summarised, with the key redacted in it.
      const journal = files.find((f) => f.path === 'runs/t1.1/journal.jsonl')!.text;
      assert.match(journal, /earlier characters not shown/);
      assert.match(journal, /Error: authentication failed for the key \[redacted ANTHROPIC_API_KEY\]/);
      assert.match(journal, /`K=\[redacted ANTHROPIC_API_KEY\]; head/);
      assert.match(outputs[6]!.stdout, /\+key=\[redacted ANTHROPIC_API_KEY\]/);
      // The model read the redacted result too.
      assert.deepEqual(secretWindows(JSON.stringify(t.server.requests[1]!.body.messages.at(-1)), LONG_KEY), []);
    } finally {
      await t.cleanup();
    }
  });

  it('anthropic: a missing key fails before the run starts, naming the lane and how to set it', async () => {
    const t = await apiLaneProject({ ...API_LANES[0], key: '' }, []);
    try {
      await t.project.tasks.add({ title: 'x' });
      await t.project.runQueue();
      const state = await t.project.state();
      assert.equal(state.runs[0]!.failureCode, 'secret-missing');
      assert.match(
        state.tasks[0]!.failureReason!,
        /^lane "anthropic" needs ANTHROPIC_API_KEY, which is not set: set the ANTHROPIC_API_KEY environment variable/,
      );
      assert.equal(t.server.requests.length, 0);
    } finally {
      await t.cleanup();
    }
  });

  it('openai-compatible: the key is optional — without it no Authorization header is sent', async () => {
    const t = await apiLaneProject({ ...API_LANES[1], key: '' }, [
      { turn: { tools: [{ name: 'finish', input: { summary: 'ok' } }] } },
    ]);
    try {
      await t.project.tasks.add({ title: 'x' });
      await t.project.runQueue();
      assert.equal((await t.project.state()).tasks[0]!.state, 'DONE');
      assert.equal(t.server.requests[0]!.headers.authorization, undefined);
    } finally {
      await t.cleanup();
    }
  });

  it('openai-compatible: without baseUrl and model the lane is misconfigured, naming both', async () => {
    const t = await apiLaneProject(API_LANES[1], []);
    try {
      await t.project.settings.update((s) => {
        s.laneSettings['openai-compatible'] = {};
      });
      await t.project.tasks.add({ title: 'x' });
      await t.project.runQueue();
      const state = await t.project.state();
      assert.equal(state.runs[0]!.failureCode, 'lane-misconfigured');
      const reason = state.tasks[0]!.failureReason!;
      assert.match(reason, /^lane "openai-compatible" is misconfigured: /);
      assert.match(
        reason,
        /baseUrl: the openai-compatible lane needs "baseUrl", the server's base URL, e\.g\. http:\/\/127\.0\.0\.1:8000\/v1/,
      );
      assert.match(reason, /model: the openai-compatible lane needs "model", the model id the server knows/);
      assert.equal(state.runs.length, 1, 'a misconfiguration is not retried');
    } finally {
      await t.cleanup();
    }
  });
});
