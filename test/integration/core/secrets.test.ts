import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Redactor } from '../../../src/core/secrets/redactor';
import { everyFileUnder, leaks } from '../../helpers/secretWindows';
import { makeTempRepo } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';

const FAKE_KEY = 'sk-test-FAKEKEY-0123456789abcdefghijklmnop';

/** A lane that needs a key and (badly) echoes it everywhere it can. */
const leakyLane = scriptedLane(
  'leaky',
  async (input) => {
    const key = input.secrets.LEAKY_API_KEY!;
    input.emit({ type: 'text', text: `using key ${key}` });
    await input.call({ kind: 'model', name: 'ask', input: { auth: key }, replay: 'safe' }, async () => ({
      echoed: key,
    }));
    return { status: 'failed', failureReason: `401 invalid key ${key}` };
  },
  { requiredSecrets: ['LEAKY_API_KEY'] },
);

async function allFiles(dir: string): Promise<string> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(await readFile(join(entry.parentPath, entry.name), 'utf8').catch(() => ''));
  }
  return out.join('\n');
}

describe('secrets', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  const open = (env: NodeJS.ProcessEnv) => {
    const registry = new LaneRegistry();
    registry.register(leakyLane);
    return Project.open(repo.dir, { registry, parentEnv: { PATH: process.env.PATH, ...env } });
  };

  it('a missing secret fails the run before the lane starts, saying how to set it', async () => {
    const project = await open({});
    await project.tasks.add({ title: 'x', lane: 'leaky' });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.equal(state.runs[0]!.failureCode, 'secret-missing');
    assert.match(
      state.tasks[0]!.failureReason!,
      /lane "leaky" needs LEAKY_API_KEY, which is not set: set the LEAKY_API_KEY environment variable, or configure a secret command/,
    );
    assert.equal(state.runs[0]!.diffStat, undefined, 'no worktree was even made');
  });

  it("a failing secret command stops the run with the command's stderr", async () => {
    const project = await open({});
    await project.settings.update((s) => {
      s.secretCommands.LEAKY_API_KEY = 'echo "vault: permission denied for secret/leaky" >&2; exit 3';
    });
    await project.tasks.add({ title: 'x', lane: 'leaky' });
    await project.runQueue();
    const task = (await project.state()).tasks[0]!;
    assert.match(
      task.failureReason!,
      /could not get LEAKY_API_KEY: the secret command .* exited with code 3: vault: permission denied for secret\/leaky/,
    );
  });

  it('a known key never reaches the journal, logs, events, errors or stored state', async () => {
    const project = await open({ LEAKY_API_KEY: FAKE_KEY });
    const events: string[] = [];
    project.onRunEvent((_id, _type, body) => events.push(JSON.stringify(body)));
    await project.tasks.add({ title: 'x', lane: 'leaky' });
    await project.runQueue();
    const state = await project.state();
    assert.match(state.tasks[0]!.failureReason!, /401 invalid key \[redacted LEAKY_API_KEY\]/);
    const everything = await allFiles(join(repo.dir, '.switchyard'));
    assert.ok(everything.includes('[redacted LEAKY_API_KEY]'), 'the redaction marker is there, so the files were read');
    assert.ok(!everything.includes(FAKE_KEY), 'the key is in no file under .switchyard');
    assert.ok(events.length > 0 && !events.join('\n').includes(FAKE_KEY), 'nor in any event');
  });

  it('the key comes from the secret command when the environment has none', async () => {
    const project = await open({});
    await project.settings.update((s) => {
      s.secretCommands.LEAKY_API_KEY = `echo ${FAKE_KEY}`;
    });
    await project.tasks.add({ title: 'x', lane: 'leaky' });
    await project.runQueue();
    assert.match((await project.state()).tasks[0]!.failureReason!, /401 invalid key \[redacted LEAKY_API_KEY\]/);
  });

  it('a credential a lane gets through passEnv is a run secret: cut-off pieces of it are redacted everywhere, and a file holding it is not merged', async () => {
    const TOKEN = `tT9-custom-${createHash('sha256').update('deploy').digest('hex')}`;
    // A lane that cuts the token the ways lanes do (a stderr tail cut to 60 characters, the end of a stream) and
    // writes it to a file.
    const cutting = scriptedLane('cutting', async (input) => {
      const token = process.env.TEAM_DEPLOY_TOKEN ?? '';
      const header = `auth header: Bearer ${token}`;
      input.emit({ type: 'log', stream: 'stderr', line: `${header.slice(0, 60)}…` });
      input.emit({ type: 'text', text: `[… 900 earlier characters not shown]\n${token.slice(-40)} was accepted` });
      await writeFile(join(input.workspaceDir, 'notes.txt'), `deploy with ${token}\n`);
      return { status: 'succeeded', summary: `deployed with ${token.slice(0, 30)}…` };
    });
    const registry = new LaneRegistry();
    registry.register(cutting);
    process.env.TEAM_DEPLOY_TOKEN = TOKEN;
    try {
      const project = await Project.open(repo.dir, {
        registry,
        parentEnv: { PATH: process.env.PATH, TEAM_DEPLOY_TOKEN: TOKEN },
      });
      await project.settings.update((s) => {
        s.laneSettings.cutting = { passEnv: ['TEAM_*'] };
      });
      await project.tasks.add({ title: 'x', lane: 'cutting' });
      await project.runQueue();
      const state = await project.state();
      assert.equal(state.runs[0]!.failureCode, 'policy-violation');
      assert.match(
        state.tasks[0]!.failureReason!,
        /^blocked by guards: secret-scan: notes\.txt:1: possible secret \(known-secret: the value of TEAM_DEPLOY_TOKEN, a secret of this run\)/,
      );
      const files = await everyFileUnder(join(repo.dir, '.switchyard'), ['worktrees']);
      assert.deepEqual(leaks(files, TOKEN), []);
      const events = files.find((f) => f.path === 'runs/t1.1/events.jsonl')!.text;
      assert.match(events, /Bearer \[redacted part of TEAM_DEPLOY_TOKEN\]…/);
      assert.match(events, /\[redacted part of TEAM_DEPLOY_TOKEN\] was accepted/);
      assert.match(
        files.find((f) => f.path === 'runs/t1.1/diff.patch')!.text,
        /\+deploy with \[redacted TEAM_DEPLOY_TOKEN\]/,
      );
    } finally {
      delete process.env.TEAM_DEPLOY_TOKEN;
    }
  });

  it('Redactor leaves short values and other text alone', () => {
    const r = new Redactor();
    r.add('PIN', '1234');
    r.add('KEY', 'abcdefgh');
    assert.equal(r.redact('pin 1234 key abcdefgh'), 'pin 1234 key [redacted KEY]');
    assert.deepEqual(r.redactValue({ a: ['xabcdefghx'] }), { a: ['x[redacted KEY]x'] });
  });
});
