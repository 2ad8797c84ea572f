// Loads one extension bundle in plain Node with bench/vscodeStandIn.cjs as `vscode`, and prints
// {requireMs, activateMs} as JSON. Usage: node startupProbe.cjs <bundle> <export to call> [command to run after]
// With a command, it also prints what activation loaded and registered, and runs that command.
'use strict';
const Module = require('node:module');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const standIn = join(__dirname, 'vscodeStandIn.cjs');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? standIn : resolve.call(this, request, ...rest);
};
const [bundle, entry, command] = process.argv.slice(2);
const context = {
  subscriptions: [],
  extension: { id: 'switchyard.switchyard', isActive: true },
  extensionUri: { scheme: 'file', path: join(bundle, '..', '..'), fsPath: join(bundle, '..', '..') },
  extensionPath: join(bundle, '..', '..'),
  secrets: {
    get: async () => undefined,
    store: async () => {},
    delete: async () => {},
    onDidChange: () => ({ dispose() {} }),
  },
  workspaceState: { get: () => undefined, update: async () => {} },
  globalState: { get: () => undefined, update: async () => {} },
};
const t0 = performance.now();
const loaded = require(bundle);
const t1 = performance.now();
loaded[entry](context);
const t2 = performance.now();
const report = { requireMs: t1 - t0, activateMs: t2 - t1 };
const loadedBundles = () => Object.keys(require.cache).filter((f) => f.startsWith(join(bundle, '..')));
if (!command) finish(report);
else {
  const vscode = require('vscode');
  report.registered = [...vscode.standInRegistered.keys()];
  report.loadedAtActivation = loadedBundles();
  Promise.resolve(vscode.commands.executeCommand(command)).then(
    (result) => finish({ ...report, result, loadedAfterCommand: loadedBundles() }),
    (error) => finish({ ...report, error: String(error), loadedAfterCommand: loadedBundles() }),
  );
}

function finish(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
  for (const d of context.subscriptions) d.dispose?.();
  process.exit(0);
}
