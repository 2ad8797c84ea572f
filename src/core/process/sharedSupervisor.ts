import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { encodeFrame, FRAME, FrameDecoder } from './frameDecoder';
import { ownProgram, ownProgramArguments } from './ownProgram';
import type { ExecStart, GroupStart, GroupStream, OwnerMessage } from './supervisorProtocol';

/** What the supervisor reports about one group, in order: started (or not), output, the end. */
export interface GroupEvents {
  started(started: { pgid: number; startTicks?: number; bootId?: string }): void;
  output(stream: GroupStream, data: Buffer): void;
  /** Exactly once: the leader's end, why it could not start, or the supervisor's own end if it died first. */
  ended(end: { code?: number; signal?: string; spawnError?: string }): void;
}

export interface GroupChannel {
  stop(): void;
  /** The owner's stream for `stream` is full (pause) or wants more (resume); each is sent only on a change. */
  pause(stream: GroupStream): void;
  resume(stream: GroupStream): void;
}

/** How an exec ended: exactly one of these, exactly once. */
export type ExecEnd =
  /** The program ran and exited (its pipes closed). */
  | { kind: 'exit'; code: number | null; signal: string | null }
  /** The supervisor could not spawn it (`code` is the errno name, e.g. ENOENT). */
  | { kind: 'spawn-error'; message: string; code?: string }
  /** The supervisor could not take it (none could start, it died or was ending first): the program did not run. */
  | { kind: 'not-run'; reason: string }
  /** The supervisor died after it took the program: it may have run, wholly or in part. */
  | { kind: 'lost'; reason: string };

export interface ExecEvents {
  output(stream: GroupStream, data: Buffer): void;
  ended(end: ExecEnd): void;
}

/** How long an idle supervisor lingers for the next group before it is let go (a fresh one starts on demand). */
export const SUPERVISOR_IDLE_MS = 10_000;

/** What the supervisor writes (ours, see supervisorProtocol.ts); `startTicks` is null when /proc could not be read. */
const SupervisorMessage = z.object({
  started: z
    .object({
      pgid: z.number().int().positive(),
      startTicks: z
        .number()
        .int()
        .nonnegative()
        .nullish()
        .transform((v) => v ?? undefined),
      bootId: z.string().optional(),
    })
    .optional(),
  spawnError: z.string().optional(),
  exit: z.object({ code: z.number().int().nullish(), signal: z.string().nullish() }).optional(),
});

/** What the supervisor writes about an exec (ours, see supervisorProtocol.ts). */
const ExecMessage = z.object({
  accepted: z.literal(true).optional(),
  refused: z.string().optional(),
  spawnError: z.object({ message: z.string(), code: z.string().nullish() }).optional(),
  exit: z.object({ code: z.number().int().nullish(), signal: z.string().nullish() }).optional(),
});

interface ExecEntry {
  events: ExecEvents;
  accepted: boolean;
}

/**
 * The one supervisor process of this Switchyard process (see supervisorProtocol.ts), multiplexing every group over
 * its control socket. It keeps the event loop alive only while a group is active; idle, it lingers unreferenced for
 * `SUPERVISOR_IDLE_MS`, then is let go, and it exits with its owner in any case (end of file on the socket). It runs
 * in a session of its own (not in the owner's process group), so whatever kills the owner's group leaves it to end
 * the groups. If it dies, every group it had ends (`ended` with its exit code or signal) and the next group starts a
 * fresh one.
 */
export class SharedSupervisor {
  private readonly child: ChildProcess;
  private readonly control: Socket;
  private readonly groups = new Map<number, GroupEvents>();
  private readonly execs = new Map<number, ExecEntry>();
  /** Set once the supervisor said it is running (its `ready` message). */
  ready = false;
  private readonly decoder = new FrameDecoder();
  private nextId = 1;
  private spawnError: string | undefined;
  private referenced = true;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Set once the process exited (its last frames may still be on their way): no new group is sent to it. */
  private exited = false;
  dead = false;

  constructor() {
    const program = ownProgram(import.meta.filename, 'supervisorMain');
    this.child = spawn(process.execPath, ownProgramArguments(program), {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      // Inside VS Code, process.execPath is Electron: this makes it plain Node.
      env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {},
      // Not in a directory a run may remove.
      cwd: '/',
      // In a session and process group of its own: a kill of the owner's whole group (a CI runner's cancel,
      // `timeout -s KILL`) does not take the supervisor with it, so it sees its owner gone and ends every group.
      detached: true,
      windowsHide: true,
    });
    this.control = this.child.stdio[3] as Socket;
    this.control.on('error', () => undefined);
    this.control.on('data', (chunk: Buffer) => {
      for (const frame of this.decoder.push(chunk)) this.onFrame(frame.type, frame.id, frame.payload);
    });
    this.child.on('error', (error) => {
      this.spawnError ??= error.message;
    });
    this.child.on('exit', () => {
      this.exited = true;
    });
    this.child.on('close', (code, signal) => this.died(code, signal));
    this.reference();
  }

  /** Whether a new group can still be sent to this supervisor. */
  get usable(): boolean {
    return !this.exited && !this.dead;
  }

  open(start: GroupStart, events: GroupEvents): GroupChannel {
    const id = this.nextId++;
    if (this.dead) {
      queueMicrotask(() => events.ended({ spawnError: this.gone() }));
      return { stop: () => undefined, pause: () => undefined, resume: () => undefined };
    }
    this.groups.set(id, events);
    this.reference();
    this.send(id, { start });
    const paused = { out: false, err: false };
    const flow = (stream: GroupStream, pause: boolean): void => {
      if (paused[stream] === pause || !this.groups.has(id)) return;
      paused[stream] = pause;
      this.send(id, pause ? { pause: stream } : { resume: stream });
    };
    return {
      stop: () => {
        if (this.groups.has(id)) this.send(id, { stop: true });
      },
      pause: (stream) => flow(stream, true),
      resume: (stream) => flow(stream, false),
    };
  }

  /**
   * Runs a short program through the supervisor (it forks, not this process), its output relayed as it comes. The
   * channel's `kill` sends the program SIGTERM.
   */
  exec(start: ExecStart, events: ExecEvents): { kill(): void } {
    const id = this.nextId++;
    if (this.dead) {
      queueMicrotask(() => events.ended({ kind: 'not-run', reason: this.gone() }));
      return { kill: () => undefined };
    }
    this.execs.set(id, { events, accepted: false });
    this.reference();
    this.send(id, { exec: start });
    return {
      kill: () => {
        if (this.execs.has(id)) this.send(id, { kill: true });
      },
    };
  }

  private gone(): string {
    return this.spawnError ?? 'the process-group supervisor is gone';
  }

  private onExecFrame(entry: ExecEntry, id: number, type: number, payload: Buffer): void {
    if (type === FRAME.stdout || type === FRAME.stderr) {
      entry.events.output(type === FRAME.stdout ? 'out' : 'err', payload);
      return;
    }
    const parsed = parseMessage(ExecMessage, payload);
    if (parsed?.accepted) entry.accepted = true;
    if (parsed?.refused !== undefined) this.endExec(id, { kind: 'not-run', reason: parsed.refused });
    else if (parsed?.spawnError)
      this.endExec(id, {
        kind: 'spawn-error',
        message: parsed.spawnError.message,
        ...(parsed.spawnError.code ? { code: parsed.spawnError.code } : {}),
      });
    else if (parsed?.exit)
      this.endExec(id, { kind: 'exit', code: parsed.exit.code ?? null, signal: parsed.exit.signal ?? null });
  }

  private endExec(id: number, end: ExecEnd): void {
    const entry = this.execs.get(id);
    if (!entry) return;
    this.execs.delete(id);
    this.maybeIdle();
    entry.events.ended(end);
  }

  /** With nothing sent to it yet, it counts as idle (unreferenced, let go after `SUPERVISOR_IDLE_MS`). */
  idleUntilUsed(): void {
    this.maybeIdle();
  }

  private maybeIdle(): void {
    if (this.groups.size === 0 && this.execs.size === 0) this.unreference();
  }

  private send(id: number, message: OwnerMessage): void {
    if (!this.dead) this.control.write(encodeFrame(FRAME.message, id, Buffer.from(JSON.stringify(message))));
  }

  private onFrame(type: number, id: number, payload: Buffer): void {
    if (id === 0 && type === FRAME.message) {
      this.ready = true;
      return;
    }
    const entry = this.execs.get(id);
    if (entry) {
      this.onExecFrame(entry, id, type, payload);
      return;
    }
    const events = this.groups.get(id);
    if (!events) return;
    if (type === FRAME.stdout || type === FRAME.stderr) {
      events.output(type === FRAME.stdout ? 'out' : 'err', payload);
      return;
    }
    const parsed = parseMessage(SupervisorMessage, payload);
    if (parsed?.started) events.started(parsed.started);
    if (parsed?.spawnError !== undefined) this.end(id, { spawnError: parsed.spawnError });
    else if (parsed?.exit)
      this.end(id, { code: parsed.exit.code ?? undefined, signal: parsed.exit.signal ?? undefined });
  }

  private end(id: number, end: Parameters<GroupEvents['ended']>[0]): void {
    const events = this.groups.get(id);
    if (!events) return;
    this.groups.delete(id);
    this.maybeIdle();
    events.ended(end);
  }

  private died(code: number | null, signal: NodeJS.Signals | null): void {
    this.dead = true;
    const end = this.spawnError
      ? { spawnError: this.spawnError }
      : { code: code ?? undefined, signal: signal ?? undefined };
    for (const id of [...this.groups.keys()]) this.end(id, end);
    const why = signal ? `signal ${signal}` : `exit code ${code}`;
    for (const [id, entry] of [...this.execs])
      this.endExec(
        id,
        entry.accepted
          ? { kind: 'lost', reason: `the process-group supervisor died (${why}) while the program ran` }
          : { kind: 'not-run', reason: this.spawnError ?? `the process-group supervisor died (${why})` },
      );
    this.unreference();
  }

  private reference(): void {
    clearTimeout(this.idleTimer);
    if (this.referenced || this.dead) return;
    this.referenced = true;
    this.child.ref();
    this.control.ref();
  }

  private unreference(): void {
    if (!this.referenced) return;
    this.referenced = false;
    this.child.unref();
    this.control.unref();
    if (this.dead) return;
    // Closing the socket is what the supervisor reads as its owner gone: with no group left it exits.
    this.idleTimer = setTimeout(() => {
      this.exited = true;
      this.control.end();
    }, SUPERVISOR_IDLE_MS);
    this.idleTimer.unref();
  }
}

/** A JSON message frame of the supervisor's, parsed with `schema`; anything else (not JSON, other shape) is dropped. */
function parseMessage<S extends z.ZodType>(schema: S, payload: Buffer): z.infer<S> | undefined {
  try {
    const result = schema.safeParse(JSON.parse(payload.toString('utf8')));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

let current: SharedSupervisor | undefined;

/** Not sooner after a supervisor that died before it was ready: a start costs a fork and a Node start. */
const RESTART_AFTER_UNREADY_MS = 5_000;
let currentStartedAt = 0;

/**
 * This process's supervisor when it is running and ready, for work that can as well be done without it (a short
 * program run directly): else `undefined`, and one is started for the later calls (not again within 5 s of one that
 * never became ready).
 */
export function readySupervisor(): SharedSupervisor | undefined {
  if (current?.usable) return current.ready ? current : undefined;
  if (current && !current.ready && Date.now() - currentStartedAt < RESTART_AFTER_UNREADY_MS) return undefined;
  // Started for later work: idle until some comes, so it neither keeps this process alive nor lingers.
  sharedSupervisor().idleUntilUsed();
  return undefined;
}

/** This process's supervisor, started on first use and again after it died. */
export function sharedSupervisor(): SharedSupervisor {
  if (!current?.usable) {
    current = new SharedSupervisor();
    currentStartedAt = Date.now();
  }
  return current;
}
