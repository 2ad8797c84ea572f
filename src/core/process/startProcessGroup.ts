import { hostname } from 'node:os';
import { finished, Readable } from 'node:stream';
import type { ProcessGroup, ProcessGroupExit, ProcessGroupSpec } from './processGroup';
import type { ProcessGroupRecord } from './processGroupRecord';
import { currentRunGroups } from './runGroups';
import { sharedSupervisor } from './sharedSupervisor';
import type { GroupStream } from './supervisorProtocol';

export type { ProcessGroup, ProcessGroupExit, ProcessGroupSpec } from './processGroup';

/** How long a group gets between SIGTERM and SIGKILL when Switchyard ends it (abort, timeout, leftovers). */
export const KILL_GRACE_MS = 2_000;
/** The same when the owner died: short, so nothing of the run outlives it by more than about a second. */
const OWNER_GONE_GRACE_MS = 500;
/**
 * Once nothing is left alive in a group, how long its stdout and stderr may stay open (a process that left the group
 * with setsid still holds them) before they are ended and `done` resolves; time the owner's reader spends paused
 * does not count.
 */
export const OUTPUT_CAP_MS = 1_000;

/**
 * Starts a program in its own process group (session) behind this process's
 * supervisor (see supervisorProtocol.ts and sharedSupervisor.ts): the group dies
 * with this process, even on SIGKILL, and whatever the program leaves running
 * in its group is ended before `done` resolves. Its output is relayed by the
 * supervisor into `stdout` and `stderr`, with back-pressure. Inside a run (see
 * runGroups.ts) the group is recorded with the run's lease while it lives.
 */
export function startProcessGroup(spec: ProcessGroupSpec): ProcessGroup {
  const runGroups = currentRunGroups();
  const { file, args = [], shell = false, cwd, env, killGraceMs = KILL_GRACE_MS } = spec;
  let record: ProcessGroupRecord | undefined;
  let ended = false;
  let resolveDone!: (exit: ProcessGroupExit) => void;
  const done = new Promise<ProcessGroupExit>((resolve) => {
    resolveDone = resolve;
  });
  const stream = (name: GroupStream): Readable => new Readable({ read: () => channel.resume(name) });
  const streams = { out: stream('out'), err: stream('err') };
  const group: ProcessGroup = {
    stdout: streams.out,
    stderr: streams.err,
    get record() {
      return record;
    },
    stop: () => {
      if (!ended) channel.stop();
    },
    done,
  };
  runGroups?.add(group);
  const channel = sharedSupervisor().open(
    {
      file,
      args,
      shell,
      cwd,
      env,
      ...(spec.input !== undefined ? { input: spec.input } : {}),
      killGraceMs,
      ownerGoneGraceMs: Math.min(OWNER_GONE_GRACE_MS, killGraceMs),
      outputCapMs: OUTPUT_CAP_MS,
    },
    {
      started: ({ pgid, startTicks, bootId }) => {
        record = {
          host: hostname(),
          pgid,
          ...(bootId ? { bootId } : {}),
          ...(startTicks !== undefined ? { startTicks } : {}),
        };
        runGroups?.changed();
      },
      output: (name, data) => {
        if (!streams[name].push(data)) channel.pause(name);
      },
      ended: (end) => {
        ended = true;
        streams.out.push(null);
        streams.err.push(null);
        const exit: ProcessGroupExit =
          end.spawnError !== undefined ? { spawnError: end.spawnError } : { exitCode: end.code, signal: end.signal };
        void Promise.all([drained(streams.out), drained(streams.err)]).then(() => {
          runGroups?.delete(group);
          resolveDone(exit);
        });
      },
    },
  );
  return group;
}

/** Resolves once `stream` has been read to its end, at once for a stream nobody reads (its data stays buffered). */
function drained(stream: Readable): Promise<void> {
  if (stream.readableFlowing === null || stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => finished(stream, () => resolve()));
}
