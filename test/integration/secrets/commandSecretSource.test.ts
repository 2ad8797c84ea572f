import assert from 'node:assert/strict';
import { realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commandSecretSource } from '../../../src/core/secrets/commandSecretSource';
import { makeTempDir } from '../../helpers/tempRepo';

const SECRET = 'sk-test-0123456789abcdef';

describe('secret commands (behind the process supervisor)', function () {
  this.timeout(30_000);
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
    await writeFile(join(dir.dir, 'key.txt'), `${SECRET}\n`);
  });
  afterEach(() => dir.cleanup());

  const secretFrom = (command: string) =>
    commandSecretSource(async () => ({ API_KEY: command }), dir.dir).get('lane', 'API_KEY');

  it("prints the secret: trimmed, run in the folder with this process's environment", async () => {
    assert.equal(await secretFrom('cat key.txt'), SECRET);
    process.env.SECRET_PART = SECRET.slice(8);
    try {
      assert.equal(await secretFrom(`echo "  ${SECRET.slice(0, 8)}$SECRET_PART  "`), SECRET);
    } finally {
      delete process.env.SECRET_PART;
    }
    assert.equal(await secretFrom('pwd'), await realpath(dir.dir));
    assert.equal(await commandSecretSource(async () => ({}), dir.dir).get('lane', 'API_KEY'), undefined);
  });

  it('a failure names the command and its stderr, never what it printed on stdout', async () => {
    await assert.rejects(secretFrom('cat key.txt; echo "vault: sealed" >&2; exit 3'), {
      code: 'secret-unavailable',
      message:
        'the secret command for API_KEY (`cat key.txt; echo "vault: sealed" >&2; exit 3`) exited with code 3: vault: sealed',
    });
    await assert.rejects(secretFrom('true'), { message: 'the secret command for API_KEY (`true`) printed nothing' });
    await assert.rejects(secretFrom('yes "$(cat key.txt)"'), {
      message: 'the secret command for API_KEY (`yes "$(cat key.txt)"`) printed more than 1 MiB',
    });
    await assert.rejects(secretFrom('kill -9 $$'), {
      message: 'the secret command for API_KEY (`kill -9 $$`) was ended by SIGKILL',
    });
  });

  it('what it leaves running in its group ends with it, and does not hold the secret back', async () => {
    const started = Date.now();
    assert.equal(await secretFrom('sleep 20 & cat key.txt'), SECRET);
    assert.ok(Date.now() - started < 10_000, `it took ${Date.now() - started} ms`);
  });
});
