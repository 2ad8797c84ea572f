// The unit tier is pure: no git, no other process, no database. `npm run test:unit` loads this before any test; it
// makes every way of starting a process throw, so a test that starts one fails naming the rule instead of slowing the
// tier down. Such a test belongs in test/integration (real git, processes, PostgreSQL) or test/stress (large drains,
// crash loops).
const childProcess = require('node:child_process');
const { syncBuiltinESMExports } = require('node:module');

const RULE =
  'the unit tier is pure (no git, no process, no database): this test starts a process, so it belongs in test/integration or test/stress';

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = function startsAProcess(file) {
    throw new Error(`${RULE} (child_process.${name} ${String(file).slice(0, 60)})`);
  };
}
// ES modules that import node:child_process (execa among them) see the same functions.
syncBuiltinESMExports();
