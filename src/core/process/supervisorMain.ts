/**
 * The process-group supervisor: the program sharedSupervisor.ts starts, one per Switchyard process. The protocol and
 * the rules it keeps are in supervisorProtocol.ts. It imports nothing of Switchyard's but the frame format, so its
 * bundle stays small and it starts fast.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { FRAME, FrameDecoder, frameHeader } from './frameDecoder';
import type { ExecStart, GroupStart, GroupStream, OwnerMessage } from './supervisorProtocol';

/** What a group and an exec share: their pipes and whether each is paused or closed. */
interface Piped {
  id: number;
  out?: Readable | null;
  err?: Readable | null;
  paused: Record<GroupStream, boolean>;
  closed: Record<GroupStream, boolean>;
}

interface Group extends Piped {
  spec: GroupStart;
  pgid?: number;
  stopping?: boolean;
  /** When SIGKILL follows the SIGTERM (ms since the epoch). */
  killAt: number;
  killed?: boolean;
  /** Nothing alive is left in the group. */
  gone?: boolean;
  /** The leader's end. */
  exited?: { code: number | null; signal: NodeJS.Signals | null };
  reported?: boolean;
  capTimer?: NodeJS.Timeout;
}

interface Exec extends Piped {
  spec: ExecStart;
  child?: ChildProcess;
  exited?: boolean;
  reported?: boolean;
  limit?: NodeJS.Timeout;
  done?: (message: object) => void;
}

const STREAMS = [
  ['out', FRAME.stdout],
  ['err', FRAME.stderr],
] as const;
const ENDING = 'the process-group supervisor is ending (SIGTERM or SIGHUP)';

const control = new Socket({ fd: 3, readable: true, writable: true });
const groups = new Map<number, Group>();
const execs = new Map<number, Exec>();
let ownerGone = false;
let ending = false;
let blocked = false;
let ticking = false;
let bootId: string | undefined;
try {
  bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
} catch {}

const errorText = (error: unknown): string => String((error as { message?: unknown } | undefined)?.message || error);

function send(type: number, id: number, payload: Buffer, flushed?: (error?: Error | null) => void): void {
  if (ownerGone) return;
  let ok = true;
  try {
    control.cork();
    control.write(frameHeader(type, id, payload.length));
    ok = control.write(payload, flushed);
    control.uncork();
  } catch {}
  if (!ok && !blocked) {
    blocked = true;
    flowAll();
  }
}
const message = (id: number, m: object): void => send(FRAME.message, id, Buffer.from(JSON.stringify(m)));

control.on('drain', () => {
  blocked = false;
  flowAll();
});
function flowAll(): void {
  for (const g of groups.values()) flow(g);
  for (const x of execs.values()) flow(x);
}
/** Reads a pipe unless the socket is full or the owner paused that stream; once the owner is gone, reads it all. */
function flow(p: Piped): void {
  for (const [k] of STREAMS) {
    const s = p[k];
    if (!s || p.closed[k]) continue;
    if (!ownerGone && (blocked || p.paused[k])) s.pause();
    else s.resume();
  }
}

/** The process groups with a live (not zombie) process in them: on Linux one scan of /proc, else kill(-pgid, 0). */
function livePgids(): Set<number> {
  const live = new Set<number>();
  let names: string[] | undefined;
  if (process.platform === 'linux')
    try {
      names = readdirSync('/proc');
    } catch {}
  if (!names) {
    for (const g of groups.values())
      if (g.pgid)
        try {
          process.kill(-g.pgid, 0);
          live.add(g.pgid);
        } catch {}
    return live;
  }
  for (const n of names) {
    if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${n}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && fields[0] !== 'X') live.add(Number(fields[2]));
  }
  return live;
}
// Nothing at all in the group (not even a zombie) needs no scan of /proc.
function groupAlive(g: Group): boolean {
  try {
    process.kill(-g.pgid!, 0);
  } catch {
    return false;
  }
  return livePgids().has(g.pgid!);
}
function signal(g: Group, s: NodeJS.Signals): void {
  if (g.pgid)
    try {
      process.kill(-g.pgid, s);
    } catch {}
}
/** SIGTERM to the group now, SIGKILL after `graceMs` (or sooner, if an earlier end asked for sooner). */
function end(g: Group, graceMs: number): void {
  if (!g.pgid || g.gone) return;
  const killAt = Date.now() + graceMs;
  if (g.stopping) {
    if (killAt < g.killAt) g.killAt = killAt;
    schedule();
    return;
  }
  g.stopping = true;
  g.killAt = killAt;
  signal(g, 'SIGTERM');
  schedule();
}
function schedule(): void {
  if (ticking) return;
  ticking = true;
  setTimeout(tick, 25);
}
function tick(): void {
  ticking = false;
  const live = livePgids();
  const now = Date.now();
  let more = false;
  for (const g of [...groups.values()]) {
    if (!g.stopping || g.gone) continue;
    if (g.exited && (!live.has(g.pgid!) || now > g.killAt + 10_000)) {
      gone(g);
      continue;
    }
    if (!g.killed && now >= g.killAt) {
      g.killed = true;
      signal(g, 'SIGKILL');
    }
    more = true;
  }
  if (more) schedule();
}
function gone(g: Group): void {
  g.gone = true;
  if (ownerGone) {
    groups.delete(g.id);
    maybeExit();
    return;
  }
  // A process that left the group may hold its pipes open: they are dropped `outputCapMs` after the group is gone
  // (time the owner's reader spends paused does not count).
  const cap = (): void => {
    if (g.reported) return;
    if (blocked || g.paused.out || g.paused.err) {
      g.capTimer = setTimeout(cap, g.spec.outputCapMs);
      return;
    }
    for (const [k] of STREAMS) if (!g.closed[k]) g[k]?.destroy();
  };
  g.capTimer = setTimeout(cap, g.spec.outputCapMs);
  maybeReport(g);
}
function maybeReport(g: Group): void {
  if (g.reported || !g.gone || !g.closed.out || !g.closed.err) return;
  g.reported = true;
  clearTimeout(g.capTimer);
  message(g.id, { exit: { code: g.exited?.code ?? null, signal: g.exited?.signal ?? null } });
  groups.delete(g.id);
  maybeExit();
}
function failed(g: Group, error: unknown): void {
  if (g.reported) return;
  g.reported = true;
  message(g.id, { spawnError: errorText(error) });
  groups.delete(g.id);
  maybeExit();
}

function start(id: number, spec: GroupStart): void {
  const g: Group = { id, spec, killAt: 0, paused: { out: false, err: false }, closed: { out: false, err: false } };
  if (ending) {
    failed(g, ENDING);
    return;
  }
  groups.set(id, g);
  const input = spec.input != null;
  let child: ChildProcess;
  try {
    child = spawn(spec.file, spec.args ?? [], {
      cwd: spec.cwd,
      env: spec.env,
      shell: !!spec.shell,
      detached: true,
      stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    failed(g, error);
    return;
  }
  child.on('error', (error) => {
    if (!g.pgid) failed(g, error);
  });
  if (child.pid === undefined) return;
  g.pgid = child.pid;
  g.out = child.stdout;
  g.err = child.stderr;
  let startTicks: number | undefined;
  try {
    const stat = readFileSync(`/proc/${g.pgid}/stat`, 'utf8');
    startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {}
  message(id, { started: { pgid: g.pgid, startTicks, bootId } });
  for (const [k, type] of STREAMS) {
    const s = g[k]!;
    s.on('data', (d: Buffer) => send(type, id, d));
    s.on('error', () => undefined);
    s.on('close', () => {
      g.closed[k] = true;
      maybeReport(g);
    });
  }
  flow(g);
  if (input) {
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(spec.input);
  }
  child.on('exit', (code, sig) => {
    g.exited = { code, signal: sig };
    if (g.stopping) return;
    if (groupAlive(g)) end(g, ownerGone ? spec.ownerGoneGraceMs : spec.killGraceMs);
    else gone(g);
  });
  if (ownerGone) end(g, spec.ownerGoneGraceMs);
}

function exec(id: number, spec: ExecStart): void {
  if (ending) {
    message(id, { refused: ENDING });
    return;
  }
  const x: Exec = { id, spec, paused: { out: false, err: false }, closed: { out: false, err: false } };
  execs.set(id, x);
  // Spawn only once the acceptance is in the kernel: an owner that never read it knows nothing ran.
  let flushed = false;
  let spawned = false;
  const go = (error?: Error | null): void => {
    if (spawned || !flushed) return;
    spawned = true;
    if (error || ownerGone) {
      execs.delete(id);
      maybeExit();
      return;
    }
    spawnExec(x);
  };
  send(FRAME.message, id, Buffer.from('{"accepted":true}'), (error) => {
    flushed = true;
    go(error);
  });
  if (control.writableLength === 0) {
    flushed = true;
    go();
  }
}
function spawnExec(x: Exec): void {
  const spec = x.spec;
  const done = (m: object): void => {
    if (x.reported) return;
    x.reported = true;
    clearTimeout(x.limit);
    execs.delete(x.id);
    message(x.id, m);
    maybeExit();
  };
  x.done = done;
  const fail = (error: unknown): void =>
    done({ spawnError: { message: errorText(error), code: (error as { code?: string } | undefined)?.code } });
  let child: ChildProcess;
  try {
    child = spawn(spec.file, spec.args ?? [], { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    fail(error);
    return;
  }
  x.child = child;
  child.on('error', (error) => {
    if (child.pid === undefined) fail(error);
  });
  if (child.pid === undefined) return;
  x.out = child.stdout;
  x.err = child.stderr;
  child.stdin!.on('error', () => undefined);
  if (spec.input != null) child.stdin!.end(spec.input);
  for (const [k, type] of STREAMS) {
    x[k]!.on('data', (d: Buffer) => send(type, x.id, d));
    x[k]!.on('error', () => undefined);
  }
  flow(x);
  child.on('exit', () => {
    x.exited = true;
    if (ownerGone) done({});
  });
  child.on('close', (code, sig) => done({ exit: { code, signal: sig } }));
  if (ownerGone) execOwnerGone(x);
}
/** The owner is gone: the exec's stdin is ended, and it may finish for its `ownerGoneMs`, then gets SIGKILL. */
function execOwnerGone(x: Exec): void {
  if (!x.child) {
    execs.delete(x.id);
    return;
  }
  if (x.reported) return;
  if (x.exited) {
    x.done?.({});
    return;
  }
  flow(x);
  try {
    x.child.stdin?.end();
  } catch {}
  x.limit = setTimeout(() => {
    try {
      x.child?.kill('SIGKILL');
    } catch {}
  }, x.spec.ownerGoneMs || 0);
}

function onMessage(id: number, m: OwnerMessage): void {
  if (m.start) start(id, m.start);
  else if (m.exec) exec(id, m.exec);
  else onControl(id, m);
}

/** A stop, kill, pause or resume of a running group or exec. */
function onControl(id: number, m: OwnerMessage): void {
  const x = execs.get(id);
  if (x) {
    if (m.kill && x.child)
      try {
        x.child.kill();
      } catch {}
    return;
  }
  const g = groups.get(id);
  if (!g) return;
  if (m.stop) end(g, g.spec.killGraceMs);
  else if (m.pause || m.resume) {
    g.paused[(m.pause ?? m.resume)!] = !!m.pause;
    flow(g);
  }
}

const decoder = new FrameDecoder();
control.on('data', (chunk: Buffer) => {
  for (const frame of decoder.push(chunk)) {
    if (frame.type !== FRAME.message) continue;
    let m: unknown;
    try {
      m = JSON.parse(frame.payload.toString('utf8'));
    } catch {
      continue;
    }
    if (m && typeof m === 'object') onMessage(frame.id, m as OwnerMessage);
  }
});

function maybeExit(): void {
  if (groups.size > 0 || execs.size > 0) return;
  if (ownerGone) process.exit(0);
  if (ending) {
    control.end(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000);
  }
}
function onOwnerGone(): void {
  if (ownerGone) return;
  ownerGone = true;
  for (const g of [...groups.values()]) {
    if (g.gone) groups.delete(g.id);
    else {
      flow(g);
      end(g, g.spec.ownerGoneGraceMs);
    }
  }
  for (const x of execs.values()) execOwnerGone(x);
  maybeExit();
}
control.on('end', onOwnerGone);
control.on('error', onOwnerGone);
control.on('close', onOwnerGone);
process.on('SIGINT', () => undefined);
message(0, { ready: true });
for (const s of ['SIGTERM', 'SIGHUP'] as const)
  process.on(s, () => {
    ending = true;
    for (const g of groups.values()) end(g, g.spec.killGraceMs);
    maybeExit();
  });
