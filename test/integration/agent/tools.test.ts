import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentTool, ToolContext } from '../../../src/core/agent/agentTool';
import { agentTools } from '../../../src/core/agent/tools';
import { telltaleLine } from '../../../src/core/agent/tools/runCommand';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('agent tools', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let ctx: ToolContext;
  const tools = new Map(agentTools({ safeCommands: ['npm test'], timeoutMs: 5_000 }).map((t) => [t.name, t]));
  const tool = (name: string): AgentTool => tools.get(name)!;
  const run = async (name: string, input: unknown) => {
    const t = tool(name);
    return t.run(t.inputSchema.parse(input), ctx);
  };
  beforeEach(async () => {
    repo = await makeTempRepo({ 'src/app.ts': 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n', 'README.md': '# x\n' });
    ctx = {
      workspaceDir: repo.dir,
      env: { PATH: process.env.PATH!, ONLY_THIS: 'yes' },
      signal: new AbortController().signal,
      idempotencyKey: 'sy-test',
    };
  });
  afterEach(() => repo.cleanup());

  it('declares replay rules: reads and writes safe, commands never unless listed as safe', () => {
    for (const name of ['read_file', 'list_dir', 'search', 'write_file', 'edit_file'])
      assert.equal(tool(name).replay({}), 'safe', name);
    assert.equal(tool('run_command').replay({ command: 'npm test' }), 'safe');
    assert.equal(tool('run_command').replay({ command: 'npm publish' }), 'never');
  });

  describe('edit_file', () => {
    it('replaces text that occurs once', async () => {
      assert.deepEqual(
        await run('edit_file', { path: 'src/app.ts', search: 'const b = 2;', replace: 'const b = 3;' }),
        { text: 'edited src/app.ts at line 2' },
      );
      assert.equal(await readFile(join(repo.dir, 'src/app.ts'), 'utf8'), 'const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
    });

    it('refuses ambiguous and absent search text with an error the model can act on', async () => {
      await assert.rejects(
        run('edit_file', { path: 'src/app.ts', search: '= 1;', replace: '= 9;' }),
        /the search text occurs 2 times in src\/app\.ts \(at lines 1, 3\); include more of the surrounding lines/,
      );
      await assert.rejects(
        run('edit_file', { path: 'src/app.ts', search: 'const c', replace: 'x' }),
        /the search text was not found in src\/app\.ts; read the file and copy the text exactly/,
      );
      await assert.rejects(
        run('edit_file', { path: 'nope.ts', search: 'a', replace: 'b' }),
        /file "nope\.ts" does not exist; create it with write_file/,
      );
    });

    it('is safe to run again: a second run of the same edit reports it was made', async () => {
      const input = { path: 'src/app.ts', search: 'const b = 2;', replace: 'const b = 2;\nconst c = 4;' };
      await run('edit_file', input);
      assert.match(
        (await run('edit_file', input)).text,
        /already contains the replacement text and not the search text: the edit was already made/,
      );
      assert.equal(
        await readFile(join(repo.dir, 'src/app.ts'), 'utf8'),
        'const a = 1;\nconst b = 2;\nconst c = 4;\nconst a2 = 1;\n',
      );
    });
  });

  describe('run_command', () => {
    it('runs in the worktree with only the lane environment, and names a failure by its telling line', async () => {
      await writeFile(
        join(repo.dir, 't.sh'),
        'echo "collected 2 items"\necho "FAILED tests/test_user.py::test_create - assert 1 == 2"\necho "==== 1 failed, 1 passed in 0.02s ===="\nexit 1\n',
      );
      const ok = await run('run_command', {
        command: 'pwd; echo "only=$ONLY_THIS home=${HOME:-unset} key=$SWITCHYARD_IDEMPOTENCY_KEY"',
      });
      assert.equal(ok.isError, undefined);
      assert.match(ok.text, new RegExp(`exit code 0 .*\\n${repo.dir}\\nonly=yes home=unset key=sy-test`));
      const failed = await run('run_command', { command: 'sh t.sh' });
      assert.equal(failed.isError, true);
      assert.equal(failed.error, '`sh t.sh` exit 1: FAILED tests/test_user.py::test_create - assert 1 == 2');
    });

    it('stops a command at its timeout', async () => {
      const out = await run('run_command', { command: 'sleep 5', timeoutMs: 1_000 });
      assert.equal(out.isError, true);
      assert.match(out.text, /timed out after 1000 ms/);
    });

    it('picks the line that says what failed', () => {
      assert.equal(telltaleLine('a\nError: cannot find module x\n   at y\n'), 'Error: cannot find module x');
      assert.equal(telltaleLine('just\nthe last line\n'), 'the last line');
      assert.equal(telltaleLine(''), undefined);
    });
  });

  it('search: git grep over tracked and untracked files, or says there are no matches', async () => {
    await writeFile(join(repo.dir, 'src/new.ts'), 'const needle = 1;\n');
    assert.equal((await run('search', { pattern: 'needle' })).text, 'src/new.ts:1:const needle = 1;');
    assert.equal(
      (await run('search', { pattern: 'const a2?\\b', regex: true, path: 'src' })).text,
      'src/app.ts:1:const a = 1;\nsrc/app.ts:3:const a2 = 1;',
    );
    assert.equal((await run('search', { pattern: 'haystack' })).text, 'no matches for "haystack"');
  });

  it('search: shows 200 matches and counts the rest', async () => {
    await writeFile(join(repo.dir, 'many.txt'), 'needle\n'.repeat(250));
    const lines = (await run('search', { pattern: 'needle' })).text.split('\n');
    assert.equal(lines.length, 201);
    assert.equal(lines[199], 'many.txt:200:needle');
    assert.equal(lines[200], '[… 50 more matches; narrow the pattern or the path]');
  });

  it("search: git gets the lane's environment, not this process's, and stops when the run is canceled", async () => {
    const gitDir = process.env.GIT_DIR;
    process.env.GIT_DIR = join(repo.dir, 'no-such-git-dir');
    try {
      assert.equal((await run('search', { pattern: 'const b' })).text, 'src/app.ts:2:const b = 2;');
    } finally {
      if (gitDir === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = gitDir;
    }
    ctx = { ...ctx, env: { ...ctx.env, GIT_DIR: join(repo.dir, 'no-such-git-dir') } };
    await assert.rejects(
      run('search', { pattern: 'const b' }),
      /^ToolError: search failed: fatal: not a git repository/,
    );
    const controller = new AbortController();
    controller.abort();
    ctx = { ...ctx, env: { PATH: process.env.PATH! }, signal: controller.signal };
    await assert.rejects(
      run('search', { pattern: 'const b' }),
      /^ToolError: search failed: git grep -n -I …: canceled$/,
    );
  });

  it('read_file, list_dir and write_file', async () => {
    assert.equal(
      (await run('read_file', { path: 'src/app.ts', startLine: 2, endLine: 3 })).text,
      'const b = 2;\nconst a2 = 1;',
    );
    await assert.rejects(run('read_file', { path: 'src' }), /"src" is a folder, not a file; use list_dir/);
    await assert.rejects(run('read_file', { path: 'missing.txt' }), /file "missing\.txt" does not exist/);
    assert.match(
      (await run('write_file', { path: 'deep/er/new.txt', content: 'hi\n' })).text,
      /^created deep\/er\/new\.txt \(3 bytes, 2 lines\)$/,
    );
    assert.equal((await run('list_dir', {})).text, 'README.md\ndeep/\nsrc/');
    await assert.rejects(run('list_dir', { path: 'README.md' }), /is a file, not a folder/);
  });
});
