const LOADER_IMPORT = Symbol.for('switchyard.loaderImport');

type Importer = (specifier: string) => Promise<unknown>;

/**
 * `import()` of a module that is not bundled (a project's lane module). Code that a loader compiled with a V8 code
 * cache (runWithCodeCache) cannot call `import()` itself: Node 20 drops a cached script's dynamic-import callback.
 * Such a loader provides its own `import()` first (`provideLoaderImport`), and that one is used.
 */
export function importModule(specifier: string): Promise<unknown> {
  const loaderImport = (globalThis as { [LOADER_IMPORT]?: Importer })[LOADER_IMPORT];
  return loaderImport ? loaderImport(specifier) : import(specifier);
}

/** For a loader that runs code compiled with a code cache: the `import()` of a module Node itself loaded. */
export function provideLoaderImport(importer: Importer): void {
  (globalThis as { [LOADER_IMPORT]?: Importer })[LOADER_IMPORT] = importer;
}
