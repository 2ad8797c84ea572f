/**
 * A module of Switchyard's own, loaded on first need, never as a second copy of it: with `require` where there is
 * one (in a bundle, where esbuild makes it a call of the bundled module's initializer; in the test runner, which
 * loads TypeScript as CommonJS, where an `import()` would load the module and all it imports again), else with
 * `import()` (sources run as ES modules). Both calls name the same module, literally, so that esbuild bundles it.
 */
export async function loadModule<M>(viaRequire: () => unknown, viaImport: () => Promise<M>): Promise<M> {
  return typeof require === 'function' ? (viaRequire() as M) : viaImport();
}
