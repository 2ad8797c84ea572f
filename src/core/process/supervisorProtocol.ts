/**
 * The process-group supervisor's protocol. The supervisor (supervisorMain.ts) is a small Node program that sits
 * between Switchyard and every process group it starts. One runs per Switchyard process (see sharedSupervisor.ts):
 * started with the same binary as Switchyard on the first group (ownProgram.ts says which file), it serves every
 * later group, with a control socket as fd 3 and nothing else of the owner's (fds 0–2 are /dev/null).
 *
 * Protocol on fd 3, both ways: frames of a 9-byte header (type: u8, group
 * id: u32 BE, payload length: u32 BE) and the payload (frameDecoder.ts, used at both ends).
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

export type GroupStream = 'out' | 'err';

/** What the owner sends to start a group. */
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

/** What the owner sends to run one short program: no process group, pipes only. */
export interface ExecStart {
  file: string;
  args: readonly string[];
  cwd: string;
  /** The child's whole environment. */
  env: Record<string, string>;
  input?: string;
  /** How long the program may go on once the owner is gone, before SIGKILL. */
  ownerGoneMs: number;
}

/** A JSON message from the owner to the supervisor, about the frame's id. */
export interface OwnerMessage {
  start?: GroupStart;
  exec?: ExecStart;
  stop?: true;
  kill?: true;
  pause?: GroupStream;
  resume?: GroupStream;
}
