/**
 * The process-group supervisor: a tiny Node program that sits between
 * Switchyard and every process group it starts for a run. Run as
 * `node -e SUPERVISOR_SCRIPT` (the same binary as Switchyard, so nothing is
 * shipped besides the bundles) with the group's stdin, stdout and stderr as
 * its own fds 0–2 and a control socket as fd 3.
 *
 * Protocol on fd 3, one JSON object a line:
 * - owner → supervisor, first line: `{ file, args, shell, cwd, env, killGraceMs, ownerGoneGraceMs }`;
 *   later `"stop"`: SIGTERM to the group, SIGKILL after `killGraceMs`.
 * - supervisor → owner: `{ "started": { pgid, startTicks, bootId } }` or `{ "spawnError": message }`.
 * - end of file on fd 3 without "stop" means the owner died (the kernel closes
 *   its end even on SIGKILL): SIGTERM, SIGKILL after `ownerGoneGraceMs`.
 *
 * The group is started with setsid (Node's `detached`), so its id is the
 * leader's pid. When the leader exits, whatever it left in its group is
 * ended the same way (SIGTERM, then SIGKILL). The supervisor exits only once
 * no live process is left in the group (zombies do not count: on Linux it
 * reads each process's state and process group from /proc/<pid>/stat, see
 * proc(5); elsewhere it probes with kill(-pgid, 0)), and then mirrors the
 * leader's end: the same exit code, or the same signal.
 *
 * SIGINT (a Ctrl-C in the owner's terminal reaches the supervisor too) is
 * ignored: the owner decides. SIGTERM and SIGHUP end the group first.
 */
// line-length: data-table, the supervisor's source exactly as node -e runs it (a raw string: no JS escapes)
export const SUPERVISOR_SCRIPT = String.raw`
'use strict';
const cp = require('child_process'), fs = require('fs'), net = require('net');
const ctl = new net.Socket({ fd: 3, readable: true, writable: true });
let spec, child, pgid, exited, stopping = false, finished = false, buf = '';
const send = (m) => { try { ctl.write(JSON.stringify(m) + '\n'); } catch {} };
const sig = (s) => { if (pgid) try { process.kill(-pgid, s); } catch {} };
function alive() {
  if (!pgid) return false;
  if (process.platform === 'linux') {
    let names; try { names = fs.readdirSync('/proc'); } catch { names = []; }
    for (const n of names) {
      if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue;
      let st; try { st = fs.readFileSync('/proc/' + n + '/stat', 'utf8'); } catch { continue; }
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) === pgid && f[0] !== 'Z' && f[0] !== 'X') return true;
    }
    return false;
  }
  try { process.kill(-pgid, 0); return true; } catch { return false; }
}
function end(graceMs) {
  if (stopping) return;
  stopping = true;
  sig('SIGTERM');
  const started = Date.now();
  let killed = false;
  const tick = () => {
    if (!alive() && exited) return finish();
    if (!killed && Date.now() - started >= graceMs) { killed = true; sig('SIGKILL'); }
    if (Date.now() - started > graceMs + 10000 && exited) return finish();
    setTimeout(tick, 25);
  };
  tick();
}
function finish() {
  if (finished) return;
  finished = true;
  try { ctl.destroy(); } catch {}
  const e = exited || { code: 1, signal: null };
  if (e.signal) {
    process.removeAllListeners(e.signal);
    try { process.kill(process.pid, e.signal); } catch {}
    setTimeout(() => process.exit(128 + (require('os').constants.signals[e.signal] || 0)), 200);
  } else process.exit(e.code == null ? 1 : e.code);
}
function start(line) {
  spec = JSON.parse(line);
  try {
    child = cp.spawn(spec.file, spec.args || [], { cwd: spec.cwd, env: spec.env, shell: !!spec.shell, detached: true, stdio: 'inherit' });
  } catch (error) { send({ spawnError: String(error && error.message || error) }); exited = { code: 127 }; return finish(); }
  child.on('error', (error) => { if (!pgid) { send({ spawnError: String(error.message) }); exited = { code: 127 }; finish(); } });
  if (child.pid === undefined) return;
  pgid = child.pid;
  let startTicks, bootId;
  try { const st = fs.readFileSync('/proc/' + pgid + '/stat', 'utf8'); startTicks = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[19]); } catch {}
  try { bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(); } catch {}
  send({ started: { pgid, startTicks, bootId } });
  child.on('exit', (code, signal) => { exited = { code, signal }; if (!stopping) { if (alive()) end(spec.killGraceMs); else finish(); } });
}
ctl.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!spec) start(line); else if (line === '"stop"') end(spec.killGraceMs);
  }
});
const ownerGone = () => { if (!spec) process.exit(1); if (!exited || alive()) end(spec.ownerGoneGraceMs); };
ctl.on('end', ownerGone);
ctl.on('error', ownerGone);
process.on('SIGINT', () => {});
for (const s of ['SIGTERM', 'SIGHUP']) process.on(s, () => { if (spec) end(spec.killGraceMs); else process.exit(1); });
`;
// line-length: end
