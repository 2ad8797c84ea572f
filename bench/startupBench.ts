import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spread, wall } from './processTiming';

const ROUNDS = 9;
const PROBE = resolve('bench/startupProbe.cjs');

interface Probe {
  wallMs: number;
  requireMs: number;
  activateMs: number;
}

/**
 * The extension's start-up in plain Node, with a stand-in `vscode` (bench/vscodeStandIn.cjs): `require` +
 * `activate()` of dist/extension.js, against `node -e 0`, and what the first command adds (`require` of
 * dist/extensionRuntime.js + `startRuntime()`), each a fresh process, interleaved round by round; medians and
 * ranges. The real host's figure is the integration suite's (test-output/activation.json).
 */
export async function benchStartup(): Promise<void> {
  const entry = resolve('dist/extension.js');
  const runtime = resolve('dist/extensionRuntime.js');
  for (const file of [entry, runtime]) {
    if (!(await exists(file))) {
      console.log(`${file} missing: run npm run build`);
      return;
    }
  }
  const folder = await mkdtemp(join(tmpdir(), 'switchyard-bench-startup-'));
  try {
    const node: number[] = [];
    const light: Probe[] = [];
    const heavy: Probe[] = [];
    for (let i = 0; i < 1 + ROUNDS; i++) {
      const n = await wall(process.execPath, ['-e', '0'], folder, standIn(folder));
      const l = await probe(entry, 'activate', folder);
      const h = await probe(runtime, 'startRuntime', folder);
      if (i === 0) continue; // warm-up: the page cache
      node.push(n.wallMs);
      light.push(l);
      heavy.push(h);
    }
    const size = (await stat(entry)).size;
    const runtimeSize = (await stat(runtime)).size;
    console.log(
      `dist/extension.js ${(size / 1024).toFixed(1)} KiB (target ≤ 200 KB); dist/extensionRuntime.js ${(runtimeSize / 1024).toFixed(1)} KiB, loaded on the first command; ${ROUNDS} rounds, fresh processes`,
    );
    console.log(`node -e 0 (floor), whole process               ${spread(node)}`);
    console.log(`extension.js: whole process                    ${spread(light.map((p) => p.wallMs))}`);
    console.log(
      `extension.js: require + activate() in process  ${spread(light.map((p) => p.requireMs + p.activateMs))}  (target ≤ 50 ms)`,
    );
    console.log(`  of which require                             ${spread(light.map((p) => p.requireMs))}`);
    console.log(
      `first command adds: require runtime + start    ${spread(heavy.map((p) => p.requireMs + p.activateMs))}`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
benchStartup.title = 'Extension start-up: require + activate() in plain Node vs node -e 0';

async function probe(bundle: string, entry: string, folder: string): Promise<Probe> {
  const { wallMs, stdout } = await wall(process.execPath, [PROBE, bundle, entry], folder, standIn(folder));
  const inside = JSON.parse(stdout) as { requireMs: number; activateMs: number };
  return { wallMs, ...inside };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The environment of a probe: the stand-in `vscode` works in `folder`. */
function standIn(folder: string): NodeJS.ProcessEnv {
  return { ...process.env, SWITCHYARD_STANDIN_FOLDER: folder };
}
