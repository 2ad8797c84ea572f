/**
 * The process-group supervisor: a tiny Node program that sits between
 * Switchyard and every process group it starts. One runs per Switchyard
 * process (see sharedSupervisor.ts): started as `node -e SUPERVISOR_SCRIPT`
 * (the same binary as Switchyard, so nothing is shipped besides the bundles)
 * on the first group, it serves every later group, with a control socket as
 * fd 3 and nothing else of the owner's (fds 0–2 are /dev/null).
 *
 * Protocol on fd 3, both ways: frames of a 9-byte header (type: u8, group
 * id: u32 BE, payload length: u32 BE) and the payload (see frameDecoder.ts).
 * Type 0 is a JSON message, types 1 and 2 (supervisor → owner only) are bytes
 * the group wrote to its stdout and stderr, exactly as read.
 * - owner → supervisor: `{ start: { file, args, shell, cwd, env, input?, killGraceMs, ownerGoneGraceMs, outputCapMs }
 *   }`, then `{ stop: true }` (SIGTERM to the group, SIGKILL after `killGraceMs`), `{ pause: 'out' | 'err' }` and
 *   `{ resume: … }` (the owner's stream is full: stop reading that pipe, so the group blocks on its writes).
 * - supervisor → owner: `{ started: { pgid, startTicks, bootId } }` or `{ spawnError }`, the output frames, then
 *   `{ exit: { code, signal } }`, the leader's own end, once nothing is left alive in the group and both its pipes are
 *   closed (or `outputCapMs` after that, the pipes are dropped: a process that left the group may hold them open).
 *   Nothing follows a group's `exit` or `spawnError`.
 * - end of file on fd 3 means the owner died (the kernel closes its end even
 *   on SIGKILL) or let an idle supervisor go: every group gets SIGTERM,
 *   SIGKILL after its `ownerGoneGraceMs`, and the supervisor exits once all
 *   are gone (at once when there is none).
 *
 * Each group is started with setsid (Node's `detached`), so its id is the
 * leader's pid. When the leader exits, whatever it left in its group is ended
 * the same way (SIGTERM, then SIGKILL). A group counts as gone once no live
 * process is left in it (zombies do not count: on Linux one scan of /proc
 * reads each process's state and process group from /proc/<pid>/stat, see
 * proc(5); elsewhere it probes with kill(-pgid, 0)). When the socket cannot
 * take more, every pipe is paused until it drains.
 *
 * Execs (a short program such as git, no process-group semantics): the owner
 * sends `{ exec: { file, args, cwd, env, input?, ownerGoneMs } }`; the
 * supervisor answers `{ refused }` (it is ending: nothing ran) or `{ accepted:
 * true }`, flushed to the socket before it spawns (so an owner that saw no
 * `accepted` knows nothing ran), then `{ spawnError: { message, code } }` or the
 * output frames and `{ exit: { code, signal } }` once the child's pipes closed.
 * `{ kill: true }` sends the child SIGTERM. An exec is spawned non-detached,
 * stdin a pipe (ended after `input`, left open without it), stdout and stderr
 * relayed as they come. When the owner goes, an exec's stdin is ended and it
 * may finish for `ownerGoneMs`, then gets SIGKILL; the supervisor exits once
 * no exec or group is left. On start the supervisor sends `{ ready: true }`
 * for id 0.
 *
 * The supervisor runs in a session and process group of its own (spawned
 * detached), so a signal to the owner's whole group (a terminal's Ctrl-C, a
 * CI runner's or `timeout -s KILL`'s kill of the group) does not reach it:
 * the owner's death reaches it as end of file on fd 3. SIGINT is ignored
 * anyway: the owner decides. SIGTERM and SIGHUP end every group (each
 * reported as usual), then the supervisor exits; a group started meanwhile
 * gets a `spawnError`.
 */
// line-length: data-table, the supervisor's source exactly as node -e runs it (a raw string: no JS escapes)
export const SUPERVISOR_SCRIPT = String.raw`
'use strict';
const cp = require('child_process'), fs = require('fs'), net = require('net');
const ctl = new net.Socket({ fd: 3, readable: true, writable: true });
const groups = new Map(), execs = new Map();
let ownerGone = false, ending = false, blocked = false, ticking = false, bootId;
try { bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(); } catch {}
function send(type, id, payload, flushed) {
  if (ownerGone) return;
  const head = Buffer.allocUnsafe(9);
  head.writeUInt8(type, 0); head.writeUInt32BE(id, 1); head.writeUInt32BE(payload.length, 5);
  let ok = true;
  try { ctl.cork(); ctl.write(head); ok = ctl.write(payload, flushed); ctl.uncork(); } catch {}
  if (!ok && !blocked) { blocked = true; flowAll(); }
}
const msg = (id, m) => send(0, id, Buffer.from(JSON.stringify(m)));
ctl.on('drain', () => { blocked = false; flowAll(); });
function flowAll() { for (const g of groups.values()) flow(g); for (const x of execs.values()) flow(x); }
function flow(g) {
  for (const k of ['out', 'err']) {
    const s = g[k];
    if (!s || g.closed[k]) continue;
    if (!ownerGone && (blocked || g.paused[k])) s.pause(); else s.resume();
  }
}
function livePgids() {
  const live = new Set();
  let names;
  if (process.platform === 'linux') try { names = fs.readdirSync('/proc'); } catch {}
  if (!names) {
    for (const g of groups.values()) if (g.pgid) try { process.kill(-g.pgid, 0); live.add(g.pgid); } catch {}
    return live;
  }
  for (const n of names) {
    if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue;
    let st; try { st = fs.readFileSync('/proc/' + n + '/stat', 'utf8'); } catch { continue; }
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    if (f[0] !== 'Z' && f[0] !== 'X') live.add(Number(f[2]));
  }
  return live;
}
// Nothing at all in the group (not even a zombie) needs no scan of /proc.
function groupAlive(g) { try { process.kill(-g.pgid, 0); } catch { return false; } return livePgids().has(g.pgid); }
const sig = (g, s) => { if (g.pgid) try { process.kill(-g.pgid, s); } catch {} };
function end(g, graceMs) {
  if (!g.pgid || g.gone) return;
  const killAt = Date.now() + graceMs;
  if (g.stopping) { if (killAt < g.killAt) g.killAt = killAt; return schedule(); }
  g.stopping = true; g.killAt = killAt; g.since = Date.now();
  sig(g, 'SIGTERM');
  schedule();
}
function schedule() { if (!ticking) { ticking = true; setTimeout(tick, 25); } }
function tick() {
  ticking = false;
  const live = livePgids(), now = Date.now();
  let more = false;
  for (const g of [...groups.values()]) {
    if (!g.stopping || g.gone) continue;
    if (g.exited && (!live.has(g.pgid) || now > g.killAt + 10000)) { gone(g); continue; }
    if (!g.killed && now >= g.killAt) { g.killed = true; sig(g, 'SIGKILL'); }
    more = true;
  }
  if (more) schedule();
}
function gone(g) {
  g.gone = true;
  if (ownerGone) { groups.delete(g.id); return maybeExit(); }
  const cap = () => {
    if (g.reported) return;
    if (blocked || g.paused.out || g.paused.err) { g.capTimer = setTimeout(cap, g.spec.outputCapMs); return; }
    for (const k of ['out', 'err']) if (g[k] && !g.closed[k]) g[k].destroy();
  };
  g.capTimer = setTimeout(cap, g.spec.outputCapMs);
  maybeReport(g);
}
function maybeReport(g) {
  if (g.reported || !g.gone || !g.closed.out || !g.closed.err) return;
  g.reported = true;
  clearTimeout(g.capTimer);
  msg(g.id, { exit: { code: g.exited.code, signal: g.exited.signal } });
  groups.delete(g.id);
  maybeExit();
}
function failed(g, error) {
  if (g.reported) return;
  g.reported = true;
  msg(g.id, { spawnError: String((error && error.message) || error) });
  groups.delete(g.id);
  maybeExit();
}
function start(id, spec) {
  const g = { id, spec, paused: { out: false, err: false }, closed: { out: false, err: false } };
  if (ending) return failed(g, 'the process-group supervisor is ending (SIGTERM or SIGHUP)');
  groups.set(id, g);
  let child;
  const input = spec.input != null;
  try {
    child = cp.spawn(spec.file, spec.args || [], { cwd: spec.cwd, env: spec.env, shell: !!spec.shell, detached: true, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  } catch (error) { return failed(g, error); }
  child.on('error', (error) => { if (!g.pgid) failed(g, error); });
  if (child.pid === undefined) return;
  g.pgid = child.pid; g.out = child.stdout; g.err = child.stderr;
  let startTicks;
  try { const st = fs.readFileSync('/proc/' + g.pgid + '/stat', 'utf8'); startTicks = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[19]); } catch {}
  msg(id, { started: { pgid: g.pgid, startTicks, bootId } });
  for (const [k, type] of [['out', 1], ['err', 2]]) {
    g[k].on('data', (d) => send(type, id, d));
    g[k].on('error', () => {});
    g[k].on('close', () => { g.closed[k] = true; maybeReport(g); });
  }
  flow(g);
  if (input) { child.stdin.on('error', () => {}); child.stdin.end(spec.input); }
  child.on('exit', (code, signal) => {
    g.exited = { code, signal };
    if (g.stopping) return;
    if (groupAlive(g)) end(g, ownerGone ? spec.ownerGoneGraceMs : spec.killGraceMs); else gone(g);
  });
  if (ownerGone) end(g, spec.ownerGoneGraceMs);
}
function exec(id, spec) {
  if (ending) return msg(id, { refused: 'the process-group supervisor is ending (SIGTERM or SIGHUP)' });
  const x = { id, spec, paused: { out: false, err: false }, closed: { out: false, err: false } };
  execs.set(id, x);
  // Spawn only once the acceptance is in the kernel: an owner that never read it knows nothing ran.
  let now = false, spawned = false;
  const go = (error) => {
    if (spawned || !now) return;
    spawned = true;
    if (error || ownerGone) { execs.delete(id); return maybeExit(); }
    spawnExec(x);
  };
  send(0, id, Buffer.from('{"accepted":true}'), (error) => { now = true; go(error); });
  if (ctl.writableLength === 0) { now = true; go(); }
}
function spawnExec(x) {
  const spec = x.spec, input = spec.input != null;
  const done = x.done = (m) => { if (x.reported) return; x.reported = true; clearTimeout(x.limit); execs.delete(x.id); msg(x.id, m); maybeExit(); };
  const fail = (error) => done({ spawnError: { message: String((error && error.message) || error), code: error && error.code } });
  let child;
  try {
    child = cp.spawn(spec.file, spec.args || [], { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) { return fail(error); }
  x.child = child;
  child.on('error', (error) => { if (child.pid === undefined) fail(error); });
  if (child.pid === undefined) return;
  x.out = child.stdout; x.err = child.stderr;
  child.stdin.on('error', () => {});
  if (input) child.stdin.end(spec.input);
  for (const [k, type] of [['out', 1], ['err', 2]]) {
    x[k].on('data', (d) => send(type, x.id, d));
    x[k].on('error', () => {});
  }
  flow(x);
  child.on('exit', () => { x.exited = true; if (ownerGone) done({}); });
  child.on('close', (code, signal) => done({ exit: { code, signal } }));
  if (ownerGone) execOwnerGone(x);
}
function execOwnerGone(x) {
  if (!x.child) return execs.delete(x.id);
  if (x.reported) return;
  if (x.exited) return x.done({});
  flow(x);
  try { x.child.stdin.end(); } catch {}
  x.limit = setTimeout(() => { try { x.child.kill('SIGKILL'); } catch {} }, x.spec.ownerGoneMs || 0);
}
function onMessage(id, m) {
  if (m.start) return start(id, m.start);
  if (m.exec) return exec(id, m.exec);
  const x = execs.get(id);
  if (x) { if (m.kill && x.child) try { x.child.kill(); } catch {} return; }
  const g = groups.get(id);
  if (!g) return;
  if (m.stop) end(g, g.spec.killGraceMs);
  else if (m.pause || m.resume) { g.paused[m.pause || m.resume] = !!m.pause; flow(g); }
}
let parts = [], total = 0, need = 0;
ctl.on('data', (d) => {
  parts.push(d); total += d.length;
  for (;;) {
    if (!need) {
      if (total < 9) return;
      if (parts[0].length < 9) parts = [Buffer.concat(parts)];
      need = 9 + parts[0].readUInt32BE(5);
    }
    if (total < need) return;
    const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    const type = buf[0], id = buf.readUInt32BE(1), body = buf.subarray(9, need), rest = buf.subarray(need);
    parts = rest.length ? [rest] : []; total = rest.length; need = 0;
    let m; try { m = JSON.parse(body.toString('utf8')); } catch { continue; }
    if (type === 0 && m) onMessage(id, m);
  }
});
function maybeExit() {
  if (groups.size > 0 || execs.size > 0) return;
  if (ownerGone) process.exit(0);
  if (ending) { ctl.end(() => process.exit(0)); setTimeout(() => process.exit(0), 1000); }
}
function onOwnerGone() {
  if (ownerGone) return;
  ownerGone = true;
  for (const g of [...groups.values()]) {
    if (g.gone) groups.delete(g.id);
    else { flow(g); end(g, g.spec.ownerGoneGraceMs); }
  }
  for (const x of execs.values()) execOwnerGone(x);
  maybeExit();
}
ctl.on('end', onOwnerGone);
ctl.on('error', onOwnerGone);
ctl.on('close', onOwnerGone);
process.on('SIGINT', () => {});
msg(0, { ready: true });
for (const s of ['SIGTERM', 'SIGHUP']) process.on(s, () => {
  ending = true;
  for (const g of groups.values()) end(g, g.spec.killGraceMs);
  maybeExit();
});
`;
// line-length: end
