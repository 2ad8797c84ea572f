import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import type { ProcessGroup, ProcessGroupExit, ProcessGroupSpec } from './processGroup';
import type { ProcessGroupRecord } from './processGroupRecord';
import { currentRunGroups } from './runGroups';
import { SUPERVISOR_SCRIPT } from './supervisorScript';

export type { ProcessGroup, ProcessGroupExit, ProcessGroupSpec } from './processGroup';

/** How long a group gets between SIGTERM and SIGKILL when Switchyard ends it (abort, timeout, leftovers). */
export const KILL_GRACE_MS = 2_000;
/** The same when the owner died: short, so nothing of the run outlives it by more than about a second. */
const OWNER_GONE_GRACE_MS = 500;

/**
 * Starts a program in its own process group (session) behind the
 * supervisor (see supervisorScript.ts): the group dies with this process,
 * even on SIGKILL, and whatever the program leaves running in its group is
 * ended before `done` resolves. Inside a run (see runGroups.ts) the group is
 * recorded with the run's lease while it lives.
 */
export function startProcessGroup(spec: ProcessGroupSpec): ProcessGroup {
  const runGroups = currentRunGroups();
  const supervisor = spawn(process.execPath, ['-e', SUPERVISOR_SCRIPT], {
    stdio: [spec.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe'],
    // Inside VS Code, process.execPath is Electron: this makes it plain Node.
    env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {},
    windowsHide: true,
  });
  const control = supervisor.stdio[3] as Writable & Readable;
  let record: ProcessGroupRecord | undefined;
  let spawnError: string | undefined;
  let ended = false;
  let buffered = '';
  const group: ProcessGroup = {
    stdout: supervisor.stdout!,
    stderr: supervisor.stderr!,
    get record() {
      return record;
    },
    stop: () => {
      if (!ended) control.write('"stop"\n', () => undefined);
    },
    done: new Promise<ProcessGroupExit>((resolve) => {
      supervisor.on('error', (error) => {
        spawnError ??= error.message;
      });
      supervisor.on('close', (code, signal) => {
        ended = true;
        runGroups?.delete(group);
        resolve(
          spawnError !== undefined ? { spawnError } : { exitCode: code ?? undefined, signal: signal ?? undefined },
        );
      });
    }),
  };
  runGroups?.add(group);
  control.on('error', () => undefined);
  control.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const message = parseMessage(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (message?.spawnError !== undefined) spawnError = message.spawnError;
      if (message?.started && !ended) {
        record = {
          host: hostname(),
          pgid: message.started.pgid,
          ...(message.started.bootId ? { bootId: message.started.bootId } : {}),
          ...(message.started.startTicks !== undefined ? { startTicks: message.started.startTicks } : {}),
        };
        runGroups?.changed();
      }
    }
  });
  const { file, args = [], shell = false, cwd, env, killGraceMs = KILL_GRACE_MS } = spec;
  const ownerGoneGraceMs = Math.min(OWNER_GONE_GRACE_MS, killGraceMs);
  control.write(`${JSON.stringify({ file, args, shell, cwd, env, killGraceMs, ownerGoneGraceMs })}\n`, () => undefined);
  if (spec.input !== undefined) {
    // A program that exits without reading its input closes the pipe; that is not an error.
    supervisor.stdin!.on('error', () => undefined);
    supervisor.stdin!.end(spec.input);
  }
  return group;
}

/** What the supervisor writes (ours, see supervisorScript.ts); `startTicks` is null when /proc could not be read. */
const SupervisorMessage = z.object({
  started: z
    .object({
      pgid: z.number().int().positive(),
      startTicks: z
        .number()
        .nullish()
        .transform((v) => v ?? undefined),
      bootId: z.string().optional(),
    })
    .optional(),
  spawnError: z.string().optional(),
});
type SupervisorMessage = z.infer<typeof SupervisorMessage>;

/** A line the supervisor wrote; anything else is ignored. */
function parseMessage(line: string): SupervisorMessage | undefined {
  try {
    const parsed = SupervisorMessage.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
