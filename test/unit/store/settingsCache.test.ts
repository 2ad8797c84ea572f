import assert from 'node:assert/strict';
import { rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { LayeredStateStore } from '../../../src/core/backend/layeredStateStore';
import { isSwitchyardError } from '../../../src/core/errors';
import { projectConfigProblems, readProjectConfig } from '../../../src/core/store/projectConfig';
import { makeTempDir } from '../../helpers/tempRepo';

/**
 * The committed config and the layered settings are cached between reads (by the file's stamp and bytes, and by the
 * layers' inputs): every change to either must still show on the very next read in the same process.
 */
describe('the cached project settings', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let store: LayeredStateStore;
  let config: string;
  const running = async (): Promise<number> => (await store.read()).settings.wip.RUNNING;
  const configWith = (running: number): string => `${JSON.stringify({ version: 1, wip: { RUNNING: running } })}\n`;
  /** Sets the file's times a minute back, so its stamp is trusted (no longer within the racy window). */
  const age = async (file: string): Promise<Date> => {
    const past = new Date(Date.now() - 60_000);
    await utimes(file, past, past);
    return past;
  };

  beforeEach(async () => {
    tmp = await makeTempDir();
    store = new LayeredStateStore(await ProjectStore.open(tmp.dir), tmp.dir, {
      trusted: () => true,
      trackedState: () => [],
      laneClass: () => undefined,
    });
    config = join(tmp.dir, '.switchyard', 'config.json');
  });
  afterEach(async () => tmp.cleanup());

  it('an edit in place shows on the next read, at once and once the file is old', async () => {
    await writeFile(config, configWith(2));
    assert.equal(await running(), 2);
    await writeFile(config, configWith(3));
    assert.equal(await running(), 3, 'an edit right after a read (same size, same inode)');
    const past = await age(config);
    assert.equal(await running(), 3);
    assert.equal(await running(), 3, 'read again from the cache');
    await writeFile(config, configWith(4));
    // Same size, same inode, and the mtime put back: only the ctime tells.
    await utimes(config, past, past);
    assert.equal(await running(), 4, 'an edit with the mtime restored');
  });

  it('a replaced file (renamed over it) shows on the next read', async () => {
    await writeFile(config, configWith(2));
    await age(config);
    assert.equal(await running(), 2);
    await writeFile(`${config}.new`, configWith(5));
    await rename(`${config}.new`, config);
    assert.equal(await running(), 5);
  });

  it('a removed file gives the defaults on the next read, and a new one applies again', async () => {
    const defaults = await running();
    await writeFile(config, configWith(defaults + 1));
    await age(config);
    assert.equal(await running(), defaults + 1);
    await rm(config);
    assert.equal(await running(), defaults);
    await writeFile(config, configWith(defaults + 2));
    assert.equal(await running(), defaults + 2);
  });

  it('a local override set or dropped between two reads shows at once; the committed value under it', async () => {
    const defaults = (await store.readWorking()).settings.wip.RUNNING;
    await writeFile(config, configWith(2));
    await age(config);
    assert.equal(await running(), 2);
    await store.update((s) => {
      s.settings.wip.RUNNING = 7;
    });
    assert.equal(await running(), 7);
    assert.equal((await store.layers()).sources.get('wip.RUNNING'), 'local');
    await writeFile(config, configWith(3));
    assert.equal(await running(), 7, 'the local override still wins');
    await store.updateLocal((local) => {
      local.localOverrides = [];
      local.wip.RUNNING = defaults;
    });
    assert.equal(await running(), 3, 'the override dropped: the committed value applies');
  });

  it('an invalid key is ignored (the default applies, the other keys work) and named until fixed', async () => {
    const defaults = await running();
    await writeFile(config, configWith(2));
    assert.equal(await running(), 2);
    await writeFile(config, '{"version": 1, "wip": {"RUNNING": "many"}, "verifyTimeoutSeconds": 77}\n');
    for (let i = 0; i < 2; i++) {
      const state = await store.read();
      assert.equal(state.settings.wip.RUNNING, defaults, 'the invalid key: the default');
      assert.equal(state.settings.verifyTimeoutSeconds, 77, 'the valid key applies');
      const problems = await projectConfigProblems(tmp.dir);
      assert.equal(problems.length, 1);
      assert.match(problems[0]!, /config\.json: wip\.RUNNING: .* \(ignored: the default applies\)$/);
      assert.ok(problems[0]!.includes(config));
    }
    await assert.rejects(readProjectConfig(tmp.dir, { strict: true }), (e: unknown) =>
      isSwitchyardError(e, 'invalid-input'),
    );
    await writeFile(config, configWith(6));
    assert.equal(await running(), 6);
    assert.deepEqual(await projectConfigProblems(tmp.dir), []);
    assert.ok((await stat(config)).size > 0);
  });

  it('a file that is not JSON is ignored as a whole, named, and the project still reads', async () => {
    await writeFile(config, '{"version": 1, "wip": {\n');
    assert.equal(typeof (await running()), 'number');
    const [problem] = await projectConfigProblems(tmp.dir);
    assert.match(problem!, /not valid JSON .*; the whole file is ignored$/);
  });
});
