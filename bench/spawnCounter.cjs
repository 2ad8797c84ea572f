// Preloaded into a Switchyard process (NODE_OPTIONS=--require) by bench/processCount.ts: appends one JSON line per
// child process it starts (command and arguments) to $SWITCHYARD_BENCH_SPAWN_LOG. Only the process itself counts, its
// worker threads included (they run this preload too, with a copy of the environment that still names the log): this
// file is removed from the NODE_OPTIONS its children inherit, so a child that is also Node does not log its own.
'use strict';
const childProcess = require('node:child_process');
const { appendFileSync } = require('node:fs');

const log = process.env.SWITCHYARD_BENCH_SPAWN_LOG;
if (process.env.NODE_OPTIONS) {
  process.env.NODE_OPTIONS = process.env.NODE_OPTIONS.replace(/--require[= ]\S*spawnCounter\.cjs/, '').trim();
}
if (log) {
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
    const original = childProcess[name];
    childProcess[name] = function counted(command, ...rest) {
      const args = Array.isArray(rest[0]) ? rest[0] : [];
      const options = (Array.isArray(rest[0]) ? rest[1] : rest[0]) ?? {};
      appendFileSync(log, `${JSON.stringify({ via: name, command, args, cwd: options.cwd })}\n`);
      return original.call(this, command, ...rest);
    };
  }
}
