import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { provideLoaderImport } from '../lanes/importModule';

/**
 * Runs a CommonJS bundle as `require` would, compiled with a V8 code cache kept in the user's own cache folder
 * (`$XDG_CACHE_HOME/switchyard/code-cache`, else `~/.cache/switchyard/code-cache`, mode 0700), so a short process that
 * loads a large bundle does not compile it again each time: the pre-push hook, which git starts on every push. The
 * cache is keyed by the bundle's path, size and mtime and by Node's version; V8 rejects a cache that does not fit, and
 * the cache is then written again. A cache folder that is not the user's own and private is not used. Any failure of
 * the cache falls back to compiling without one.
 */
export function runWithCodeCache(file: string): void {
  // esbuild writes ASCII: read as Latin-1 then, which is the same text and faster to decode than UTF-8.
  const bytes = readFileSync(file);
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8').replace(/^#!.*/, '');
  const cacheFile = codeCacheFile(file);
  const cached = cacheFile ? readOrUndefined(cacheFile) : undefined;
  const script = new Script(Module.wrap(source), { filename: file, cachedData: cached });
  if (cacheFile && (cached === undefined || script.cachedDataRejected)) {
    // After the run, so the cache also holds the functions compiled while it ran.
    process.once('exit', () => writeCache(cacheFile, script));
  }
  // The bundle cannot call import() itself (see importModule): it gets this module's.
  provideLoaderImport((specifier) => import(specifier));
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  // As `require` would: relative to the bundle, with `require.main` (the process's entry) and `require.resolve`.
  const localRequire = Module.createRequire(file);
  wrapper.call(loaded.exports, loaded.exports, localRequire, loaded, file, dirname(file));
}

function codeCacheFile(file: string): string | undefined {
  try {
    const root = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    const dir = join(root, 'switchyard', 'code-cache');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = statSync(dir);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) return undefined;
    if ((info.mode & 0o077) !== 0) return undefined;
    const bundle = statSync(file);
    const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
    // <bundle>-<build>.bin: the bundle's path and Node's version, then the bundle's size and mtime (see writeCache).
    const build = hash(`${bundle.size}\0${bundle.mtimeMs}`);
    return join(dir, `${hash(`${file}\0${process.version}\0${process.arch}`)}-${build}.bin`);
  } catch {
    return undefined;
  }
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

function writeCache(path: string, script: Script): void {
  try {
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // A cache that cannot be written only costs the next run its compile time.
    return;
  }
  removeStaleCaches(path);
}

/**
 * After a new cache is written: the caches of the same bundle's earlier builds (for the same Node) go, and so does any
 * cache not written for 30 days (a bundle that was removed), so the folder does not grow with every build.
 */
function removeStaleCaches(written: string): void {
  const dir = dirname(written);
  const bundle = basename(written).split('-')[0];
  const old = Date.now() - 30 * 24 * 3600 * 1000;
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (path === written || !name.endsWith('.bin')) continue;
      if (name.startsWith(`${bundle}-`) || statSync(path).mtimeMs < old) rmSync(path, { force: true });
    }
  } catch {
    // Left for the next write.
  }
}
