// Preloaded into a Switchyard process (NODE_OPTIONS=--require) by bench/processCount.ts: appends one JSON line per
// child process it starts (command and arguments) to $SWITCHYARD_BENCH_SPAWN_LOG. Only the process itself counts, its
// worker threads included (they run this preload too, with a copy of the environment that still names the log): this
// file is removed from the NODE_OPTIONS its children inherit, so a child that is also Node does not log its own. The
// process-group supervisor (one per Switchyard process, which starts the lanes' process groups and, during a drain,
// git) is the exception: it starts processes on Switchyard's behalf, so it is started with this file preloaded and the
// log named in its own environment, and its lines say `by: "supervisor"` (its children get the environment Switchyard
// gives them, without the log).
'use strict';
const childProcess = require('node:child_process');
const { appendFileSync } = require('node:fs');

const log = process.env.SWITCHYARD_BENCH_SPAWN_LOG;
const by = process.env.SWITCHYARD_BENCH_SPAWN_BY;
delete process.env.SWITCHYARD_BENCH_SPAWN_BY;
// Node running the supervisor's program: dist/supervisorMain.js beside a bundle, or (from the sources) a `-e` line
// that loads supervisorMain.ts.
const isSupervisor = (command, args) =>
  command === process.execPath && typeof args.at(-1) === 'string' && /[\\/]supervisorMain\.(js|ts)\b/.test(args.at(-1));
if (process.env.NODE_OPTIONS) {
  process.env.NODE_OPTIONS = process.env.NODE_OPTIONS.replace(/--require[= ]\S*spawnCounter\.cjs/, '').trim();
}
if (log) {
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
    const original = childProcess[name];
    childProcess[name] = function counted(command, ...rest) {
      const args = Array.isArray(rest[0]) ? rest[0] : [];
      const options = (Array.isArray(rest[0]) ? rest[1] : rest[0]) ?? {};
      appendFileSync(log, `${JSON.stringify({ via: name, command, args, cwd: options.cwd, ...(by ? { by } : {}) })}\n`);
      if (name === 'spawn' && isSupervisor(command, args)) {
        const env = { ...options.env, SWITCHYARD_BENCH_SPAWN_LOG: log, SWITCHYARD_BENCH_SPAWN_BY: 'supervisor' };
        return original.call(this, command, ['--require', __filename, ...args], { ...options, env });
      }
      return original.call(this, command, ...rest);
    };
  }
}
