import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Process bookkeeping for the test harness (Linux: reads /proc).
 *
 * Every process the harness starts gets a marker in its environment (and
 * `TMPDIR` inside the run's temp dir, which even lanes with an allowlisted
 * environment inherit). A process that left its process group (setsid,
 * `detached: true`) is still found by its marker, so nothing survives a run.
 */
export const MARKER_VAR = 'SWITCHYARD_TEST_RUN';

interface ProcInfo {
  pid: number;
  pgid: number;
  zombie: boolean;
}

function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, pgid: Number(fields[2]), zombie: fields[0] === 'Z' || fields[0] === 'X' };
  } catch {
    return undefined;
  }
}

function livePids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch {
    return [];
  }
}

/** Live (not zombie) pids, other than this process, whose environment contains one of `needles` (`NAME=value`). */
export function pidsWithEnv(needles: readonly string[]): number[] {
  return livePids().filter((pid) => {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      return false; // gone, or not ours to read
    }
    const vars = environ.split('\0');
    return needles.some((needle) => vars.includes(needle)) && procInfo(pid)?.zombie === false;
  });
}

/** True while any live (not zombie) process belongs to group `pgid`. */
export function groupAlive(pgid: number): boolean {
  return livePids().some((pid) => {
    const info = procInfo(pid);
    return info !== undefined && info.pgid === pgid && !info.zombie;
  });
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

export function signalPids(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Stops a process group and every process carrying one of `needles`:
 * SIGTERM, up to `graceMs` to exit, then SIGKILL, then waits until none is
 * left. Returns the pids that needed SIGKILL (for diagnostics).
 */
export async function killAll(
  pgid: number | undefined,
  needles: readonly string[],
  graceMs = 5_000,
): Promise<number[]> {
  const alive = (): boolean => (pgid !== undefined && groupAlive(pgid)) || pidsWithEnv(needles).length > 0;
  if (pgid !== undefined) signalGroup(pgid, 'SIGTERM');
  signalPids(pidsWithEnv(needles), 'SIGTERM');
  const until = Date.now() + graceMs;
  while (alive() && Date.now() < until) await sleep(50);
  const stubborn = pidsWithEnv(needles);
  if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
  signalPids(stubborn, 'SIGKILL');
  const hardUntil = Date.now() + 5_000;
  while (alive() && Date.now() < hardUntil) await sleep(50);
  if (alive())
    throw new Error(`processes survived SIGKILL: group ${pgid ?? '-'}, pids ${pidsWithEnv(needles).join(', ')}`);
  return stubborn;
}

/** The synchronous last resort for `process.on('exit')`: SIGKILL, no waiting. */
export function killAllSync(pgid: number | undefined, needles: readonly string[]): void {
  if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
  signalPids(pidsWithEnv(needles), 'SIGKILL');
}
