import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { encodeFrame, FRAME, FrameDecoder } from './frameDecoder';
import { SUPERVISOR_SCRIPT } from './supervisorScript';

/** What the owner sends to start a group (see supervisorScript.ts). */
export interface GroupStart {
  file: string;
  args: readonly string[];
  shell: boolean;
  cwd: string;
  env: Record<string, string>;
  input?: string;
  killGraceMs: number;
  ownerGoneGraceMs: number;
  outputCapMs: number;
}

export type GroupStream = 'out' | 'err';

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

/** How long an idle supervisor lingers for the next group before it is let go (a fresh one starts on demand). */
export const SUPERVISOR_IDLE_MS = 10_000;

/** What the supervisor writes (ours, see supervisorScript.ts); `startTicks` is null when /proc could not be read. */
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

/**
 * The one supervisor process of this Switchyard process (see supervisorScript.ts), multiplexing every group over
 * its control socket. It keeps the event loop alive only while a group is active; idle, it lingers unreferenced for
 * `SUPERVISOR_IDLE_MS`, then is let go, and it exits with its owner in any case (end of file on the socket). If it
 * dies, every group it had ends (`ended` with its exit code or signal) and the next group starts a fresh one.
 */
export class SharedSupervisor {
  private readonly child: ChildProcess;
  private readonly control: Socket;
  private readonly groups = new Map<number, GroupEvents>();
  private readonly decoder = new FrameDecoder();
  private nextId = 1;
  private spawnError: string | undefined;
  private referenced = true;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Set once the process exited (its last frames may still be on their way): no new group is sent to it. */
  private exited = false;
  dead = false;

  constructor() {
    this.child = spawn(process.execPath, ['-e', SUPERVISOR_SCRIPT], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      // Inside VS Code, process.execPath is Electron: this makes it plain Node.
      env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {},
      // Not in a directory a run may remove.
      cwd: '/',
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
      queueMicrotask(() => events.ended({ spawnError: this.spawnError ?? 'the process-group supervisor is gone' }));
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

  private send(id: number, message: object): void {
    if (!this.dead) this.control.write(encodeFrame(FRAME.message, id, Buffer.from(JSON.stringify(message))));
  }

  private onFrame(type: number, id: number, payload: Buffer): void {
    const events = this.groups.get(id);
    if (!events) return;
    if (type === FRAME.stdout || type === FRAME.stderr) {
      events.output(type === FRAME.stdout ? 'out' : 'err', payload);
      return;
    }
    let parsed: z.infer<typeof SupervisorMessage> | undefined;
    try {
      const result = SupervisorMessage.safeParse(JSON.parse(payload.toString('utf8')));
      parsed = result.success ? result.data : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed?.started) events.started(parsed.started);
    if (parsed?.spawnError !== undefined) this.end(id, { spawnError: parsed.spawnError });
    else if (parsed?.exit)
      this.end(id, { code: parsed.exit.code ?? undefined, signal: parsed.exit.signal ?? undefined });
  }

  private end(id: number, end: Parameters<GroupEvents['ended']>[0]): void {
    const events = this.groups.get(id);
    if (!events) return;
    this.groups.delete(id);
    if (this.groups.size === 0) this.unreference();
    events.ended(end);
  }

  private died(code: number | null, signal: NodeJS.Signals | null): void {
    this.dead = true;
    const end = this.spawnError
      ? { spawnError: this.spawnError }
      : { code: code ?? undefined, signal: signal ?? undefined };
    for (const id of [...this.groups.keys()]) this.end(id, end);
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

let current: SharedSupervisor | undefined;

/** This process's supervisor, started on first use and again after it died. */
export function sharedSupervisor(): SharedSupervisor {
  if (!current?.usable) current = new SharedSupervisor();
  return current;
}
