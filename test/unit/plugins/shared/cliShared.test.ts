import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildCliEnv, pickSecrets } from '../../../../plugins/shared/cliEnv';
import { CliLaneSettings } from '../../../../plugins/shared/cliSettings';
import { describeCliFailure } from '../../../../plugins/shared/describeFailure';
import { findBinary } from '../../../../plugins/shared/findBinary';
import { LineSplitter } from '../../../../plugins/shared/lineSplitter';
import { parseStreamLine } from '../../../../plugins/shared/parseStreamLine';
import { ClaudeStreamEvent } from '../../../../plugins/claude-code/streamSchema';
import { makeTempDir } from '../../../helpers/tempRepo';

describe('CLI lanes: shared machinery', () => {
  it('splits lines across chunks, keeps a character split between chunks whole, and returns a line cut mid-way', () => {
    const split = new LineSplitter();
    const euro = Buffer.from('€');
    assert.deepEqual(split.push(Buffer.from('{"a":1}\n{"b":')), ['{"a":1}']);
    assert.deepEqual(split.push(Buffer.concat([Buffer.from('"x'), euro.subarray(0, 1)])), []);
    assert.deepEqual(split.push(Buffer.concat([euro.subarray(1), Buffer.from('"}\r\n{"type":"assi')])), ['{"b":"x€"}']);
    assert.equal(split.end(), '{"type":"assi');
    assert.equal(split.end(), undefined, 'nothing is left after end()');
  });

  it('parses a line as an event, keeps garbage and unknown events as they are', () => {
    assert.equal(parseStreamLine('   ', ClaudeStreamEvent).kind, 'blank');
    assert.deepEqual(parseStreamLine('Loading MCP servers…', ClaudeStreamEvent), {
      kind: 'garbage',
      raw: 'Loading MCP servers…',
    });
    const unknown = parseStreamLine(
      '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}',
      ClaudeStreamEvent,
    );
    assert.equal(unknown.kind, 'unknown');
    const event = parseStreamLine(
      '{"type":"system","subtype":"init","session_id":"s1","extra":{"kept":true}}',
      ClaudeStreamEvent,
    );
    assert.equal(event.kind, 'event');
    assert.deepEqual(
      event.kind === 'event' && event.event,
      { type: 'system', subtype: 'init', session_id: 's1', extra: { kept: true } },
      'fields we do not read are kept',
    );
  });

  it('finds the binary from the setting, then PATH in order, and says where it looked when it is missing', async () => {
    const tmp = await makeTempDir();
    try {
      const a = join(tmp.dir, 'a');
      const b = join(tmp.dir, 'b');
      await mkdir(a);
      await mkdir(b);
      await writeFile(join(b, 'agent'), '#!/bin/sh\n', { mode: 0o755 });
      await writeFile(join(a, 'not-exec'), 'x', { mode: 0o644 });
      assert.deepEqual(
        await findBinary('cursor-agent', 'cursor-agent', ['cursor-agent', 'agent'], undefined, `${a}:${b}`),
        { ok: true, path: join(b, 'agent') },
      );
      assert.deepEqual(await findBinary('x', 'x', ['x'], join(b, 'agent'), ''), { ok: true, path: join(b, 'agent') });
      const missing = await findBinary('claude-code', 'Claude Code', ['claude'], undefined, `${a}:${b}`);
      assert.equal(missing.ok, false);
      assert.match(
        !missing.ok ? missing.reason : '',
        new RegExp(
          `cannot find the Claude Code CLI: \`claude\` is not on PATH \\(${a}:${b}\\); set the lane's binary \\(switchyard lanes set claude-code binary=/path/to/claude\\)`,
        ),
      );
      const notExec = await findBinary('x', 'x', ['x'], join(a, 'not-exec'), '');
      assert.match(!notExec.ok ? notExec.reason : '', /points to .*not-exec, which is not executable/);
      const relative = await findBinary('x', 'x', ['x'], './bin/x', '');
      assert.match(!relative.ok ? relative.reason : '', /is a relative path/);
    } finally {
      await tmp.cleanup();
    }
  });

  it('builds the environment from the allowlisted base, explicitly passed names and prefixes, and the secrets', () => {
    const parent = {
      AWS_PROFILE: 'prod',
      AWS_REGION: 'eu-west-1',
      GITHUB_TOKEN: 'ghp_x',
      ANTHROPIC_API_KEY: 'parent-key',
    };
    assert.deepEqual(buildCliEnv({ PATH: '/bin' }, [], parent, { ANTHROPIC_API_KEY: 'resolved' }), {
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'resolved',
    });
    assert.deepEqual(buildCliEnv({ PATH: '/bin' }, ['AWS_PROFILE', 'NOT_SET'], parent, {}), {
      PATH: '/bin',
      AWS_PROFILE: 'prod',
    });
    assert.deepEqual(
      buildCliEnv({}, ['AWS_*', 'ANTHROPIC_API_KEY'], parent, { ANTHROPIC_API_KEY: 'resolved' }),
      { AWS_PROFILE: 'prod', AWS_REGION: 'eu-west-1', ANTHROPIC_API_KEY: 'resolved' },
      'the resolved secret wins',
    );
    assert.deepEqual(
      pickSecrets(
        { OPENAI_API_KEY: 'k' },
        { OPENAI_API_KEY: 'OPENAI_API_KEY', CODEX_API_KEY: 'OPENAI_API_KEY', OTHER: 'MISSING' },
      ),
      { OPENAI_API_KEY: 'k', CODEX_API_KEY: 'k' },
    );
  });

  it('rejects unknown and malformed settings by name', () => {
    const typo = CliLaneSettings.safeParse({ modle: 'x' });
    assert.equal(typo.success, false);
    assert.match(JSON.stringify(typo.error?.issues), /modle/);
    assert.equal(CliLaneSettings.safeParse({ passEnv: ['AWS PROFILE'] }).success, false);
    assert.deepEqual(CliLaneSettings.parse({ passEnv: ['AWS_*'], timeoutMs: 5 }), {
      passEnv: ['AWS_*'],
      timeoutMs: 5,
      extraArgs: [],
    });
  });

  it("puts the CLI's own error first in the failure reason, then the cut, the exit and stderr", () => {
    const end = { exitCode: 1, stderrTail: ['warn: a', 'Error: boom'], aborted: false };
    assert.equal(
      describeCliFailure({ cli: 'claude', end, cliError: 'API Error: 529 overloaded', finished: true }),
      'claude reported: API Error: 529 overloaded; claude exited with code 1; stderr: warn: a | Error: boom',
    );
    assert.equal(
      describeCliFailure({
        cli: 'codex',
        end: { signal: 'SIGKILL', cutLine: '{"type":"item.comp', stderrTail: [], aborted: false },
        finished: false,
      }),
      'codex\'s stream stopped mid-line after 18 characters, before a result: "{\\"type\\":\\"item.comp"; codex was killed by SIGKILL; no stderr output',
    );
    assert.equal(
      describeCliFailure({
        cli: 'cursor-agent',
        end: { exitCode: 0, stderrTail: [], aborted: false },
        finished: false,
      }),
      "cursor-agent's stream ended without a result; cursor-agent exited with code 0; no stderr output",
    );
  });
});
