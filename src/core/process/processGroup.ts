import type { Readable } from 'node:stream';
import type { ProcessGroupRecord } from './processGroupRecord';

export interface ProcessGroupSpec {
  /** The program, or with `shell` the command line (run by /bin/sh -c). */
  file: string;
  args?: readonly string[];
  shell?: boolean;
  cwd: string;
  /** Exactly the environment of the group: nothing of Switchyard's own is added. */
  env: Record<string, string>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  killGraceMs?: number;
}

export interface ProcessGroupExit {
  exitCode?: number;
  signal?: string;
  /** Why the program could not even start (not found, permission denied). */
  spawnError?: string;
}

export interface ProcessGroup {
  readonly stdout: Readable;
  readonly stderr: Readable;
  /**
   * Resolves once the leader has exited, nothing is left alive in its group and both streams are drained; never
   * rejects.
   */
  readonly done: Promise<ProcessGroupExit>;
  /** The group as recorded with the run's lease, once it started. */
  readonly record: ProcessGroupRecord | undefined;
  /** Ends the whole group: SIGTERM, then SIGKILL after the grace period. */
  stop(): void;
}
