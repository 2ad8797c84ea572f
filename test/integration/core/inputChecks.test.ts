import assert from 'node:assert/strict';
import { decodeUtf8, firstInvalidUtf8Byte } from '../../../src/core/model/decodeUtf8';
import { normalizeRepoPath, repoPathProblem, titleProblem } from '../../../src/core/model/newTaskSpec';
import { ENV_VALUE_MAX_BYTES, taskSpecEnv } from '../../../src/core/lanes/taskSpecEnv';
import { buildLaneEnv } from '../../../src/core/lanes/laneEnv';
import { parseSettingValue } from '../../../src/core/lanes/parseSettingValue';
import { LaneManifest } from '../../../src/core/model/laneManifest';
import { Project } from '../../../src/core/project/project';
import { isSwitchyardError } from '../../../src/core/errors';
import { classify } from '../../../src/core/retry/classifyError';
import { builtinLanes, registryWithBuiltins } from '../../../src/lanes/builtinLanes';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('input checks', () => {
  it('finds the first invalid UTF-8 byte exactly where TextDecoder refuses (random bytes, compared one by one)', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const fatal = new TextDecoder('utf-8', { fatal: true });
    for (let n = 0; n < 3000; n += 1) {
      // Mostly valid text with a few random bytes in it, so both outcomes are common.
      const text = Buffer.from(`héllo ✓ 𝄞 ${n}`);
      const bytes = Buffer.concat([
        text.subarray(0, Math.floor(random() * text.length)),
        Buffer.from([Math.floor(random() * 256), Math.floor(random() * 256)]),
        text,
      ]);
      const offset = firstInvalidUtf8Byte(bytes);
      let decodes = true;
      try {
        fatal.decode(bytes);
      } catch {
        decodes = false;
      }
      assert.equal(offset === -1, decodes, bytes.toString('hex'));
      if (offset >= 0) {
        assert.doesNotThrow(() => fatal.decode(bytes.subarray(0, offset)), 'everything before the offset is valid');
      }
    }
    for (const [hex, offset] of [
      ['c0af', 0],
      ['e080af', 0],
      ['eda080', 0],
      ['f4908080', 0],
      ['41e282', 1],
      ['4142ff', 2],
      ['f09d849e41', -1],
    ] as const) {
      assert.equal(firstInvalidUtf8Byte(Buffer.from(hex, 'hex')), offset, hex);
    }
  });

  it('decodeUtf8 refuses with the offset, value and line, and keeps valid text', () => {
    assert.equal(decodeUtf8(Buffer.from('ok ✓'), 'x'), 'ok ✓');
    assert.throws(
      () => decodeUtf8(Buffer.from('a\nb\n\xff', 'latin1'), 'spec.md'),
      (e: unknown) => {
        assert.ok(isSwitchyardError(e, 'invalid-input'));
        assert.equal(
          e.message,
          'spec.md is not UTF-8 text: byte 0xFF at byte offset 4 (line 3) is not valid UTF-8; save the file as UTF-8 and try again',
        );
        return true;
      },
    );
  });

  it('titles are one line; target files are relative paths inside the repository', () => {
    assert.equal(titleProblem('Fix the date parser'), undefined);
    assert.match(titleProblem('a\u2029b')!, /line break at character 2/);
    assert.match(titleProblem('tab\there')!, /control character U\+0009/);
    assert.equal(repoPathProblem('src/app.ts'), undefined);
    assert.equal(repoPathProblem('a/../b'), undefined);
    assert.match(repoPathProblem('a/../../b')!, /points outside the repository/);
    assert.match(repoPathProblem('\\\\server\\share')!, /absolute path/);
    assert.equal(normalizeRepoPath('./a//b/./c/../d.ts'), 'a/b/d.ts');
    assert.equal(normalizeRepoPath('dir/'), 'dir/');
  });

  it('the core refuses them for every caller (VS Code too), storing nothing', async () => {
    const repo = await makeTempRepo();
    try {
      const project = await Project.open(repo.dir, { registry: registryWithBuiltins() });
      try {
        await assert.rejects(project.tasks.add({ title: 'one\ntwo' }), /title: a title is one line/);
        await assert.rejects(
          project.tasks.add({ title: 'x', files: ['/etc/passwd'] }),
          /files\.0: "\/etc\/passwd" is an absolute path/,
        );
        await assert.rejects(
          project.tasks.add({ title: 'x', spec: 'a\u0000b' }),
          /spec: contains a NUL character \(at character 2\)/,
        );
        assert.deepEqual((await project.state()).tasks, []);
      } finally {
        await project.close();
      }
    } finally {
      await repo.cleanup();
    }
  });

  it('a spec larger than one environment variable is cut with a note; the file always holds it whole', () => {
    const small = taskSpecEnv('do it', '/r/spec.md');
    assert.deepEqual(small, { SWITCHYARD_TASK_SPEC: 'do it', SWITCHYARD_TASK_SPEC_FILE: '/r/spec.md' });
    const big = 'é'.repeat(70_000); // 140,000 bytes
    const cut = taskSpecEnv(big, '/r/spec.md');
    const bytes = Buffer.byteLength(cut.SWITCHYARD_TASK_SPEC);
    assert.ok(bytes <= ENV_VALUE_MAX_BYTES, `${bytes}`);
    assert.ok(bytes > ENV_VALUE_MAX_BYTES - 300, `${bytes}`);
    assert.ok(!cut.SWITCHYARD_TASK_SPEC.includes('\ufffd'), 'cut at a character boundary');
    assert.match(
      cut.SWITCHYARD_TASK_SPEC,
      /\n\[… the spec is 140000 bytes, more than an environment variable carries; the whole spec is in the file named by SWITCHYARD_TASK_SPEC_FILE\]$/,
    );
    assert.match(
      taskSpecEnv('a\u0000b', '/f').SWITCHYARD_TASK_SPEC,
      /^\[… the spec is 3 bytes and holds a NUL character/,
    );
    const env = buildLaneEnv({}, [], { SWITCHYARD_FEEDBACK: 'x'.repeat(200_000), SWITCHYARD_TASK_ID: 't1' });
    assert.ok(Buffer.byteLength(env.SWITCHYARD_FEEDBACK!) <= ENV_VALUE_MAX_BYTES);
    assert.match(
      env.SWITCHYARD_FEEDBACK!,
      /\n\[… the SWITCHYARD_FEEDBACK is 200000 bytes, more than an environment variable carries; cut at 65536 bytes\]$/,
    );
    assert.equal(env.SWITCHYARD_TASK_ID, 't1');
  });

  it('E2BIG is a permanent error', () => {
    assert.equal(
      classify(
        'could not start the command (spawn E2BIG: the command line and environment are larger than the system allows): `cat`',
      ).class,
      'permanent',
    );
    assert.equal(
      classify('cursor-agent could not be started: spawn /usr/bin/cursor-agent E2BIG').rule,
      'input-too-large',
    );
  });

  it('every built-in lane types each of its settings; values are parsed by type', () => {
    for (const lane of builtinLanes()) {
      const manifest = LaneManifest.parse(lane.manifest);
      for (const [key, doc] of Object.entries(manifest.settings))
        assert.ok(doc.type, `${manifest.id}.${key} has a type`);
    }
    const manifest = LaneManifest.parse(builtinLanes().find((l) => l.manifest.id === 'command')!.manifest);
    assert.deepEqual(parseSettingValue(manifest, 'command', 'true'), { ok: true, value: 'true' });
    assert.deepEqual(parseSettingValue(manifest, 'command', ' "quoted" '), { ok: true, value: ' "quoted" ' });
    assert.deepEqual(parseSettingValue(manifest, 'timeoutMs', ' 5000 '), { ok: true, value: 5000 });
    assert.equal(parseSettingValue(manifest, 'timeoutMs', '').ok, false);
    const untyped = LaneManifest.parse({ ...manifest, id: 'mine', settings: { free: { description: 'd' } } });
    assert.deepEqual(parseSettingValue(untyped, 'free', '{"a":1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseSettingValue(untyped, 'free', 'text'), { ok: true, value: 'text' });
    const none = LaneManifest.parse({ ...manifest, id: 'bare', settings: {} });
    assert.deepEqual(parseSettingValue(none, 'any', '3'), { ok: true, value: 3 });
  });
});
