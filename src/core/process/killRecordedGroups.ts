import { readFileSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessGroupRecord } from './processGroupRecord';

interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
  startTicks: number;
}

/**
 * Ends, with SIGKILL, the recorded process groups of a run's dead owner that
 * are still alive on this machine (its supervisor died with it, or never
 * got to end them). Called by the process taking the run over, before it
 * resumes or retries it. A group counts as the recorded one when its leader
 * is alive with the recorded start time, or, its leader gone, when every
 * live member started no earlier than the leader did (a pid is not reused
 * while its group exists). Groups on another machine, or from before a
 * reboot, are left alone. Returns the group ids it signalled.
 */
export function killRecordedGroups(records: readonly ProcessGroupRecord[] | undefined): number[] {
  if (!records?.length) return [];
  const host = hostname();
  const boot = currentBootId();
  const killed: number[] = [];
  for (const record of records) {
    if (record.host !== host || (record.bootId && boot && record.bootId !== boot)) continue;
    if (!isRecordedGroup(record)) continue;
    try {
      process.kill(-record.pgid, 'SIGKILL');
      killed.push(record.pgid);
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}

function isRecordedGroup(record: ProcessGroupRecord): boolean {
  if (!procAvailable()) return record.startTicks === undefined;
  if (record.startTicks === undefined) return false;
  const leader = readProcStat(record.pgid);
  if (leader && leader.state !== 'Z') return leader.pgrp === record.pgid && leader.startTicks === record.startTicks;
  const members = liveGroupMembers(record.pgid);
  return members.length > 0 && members.every((m) => m.startTicks >= record.startTicks!);
}

/** The live (not zombie) processes of group `pgid`, from /proc. */
export function liveGroupMembers(pgid: number): (ProcStat & { pid: number })[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: (ProcStat & { pid: number })[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
      members.push({ pid: Number(name), ...stat });
  }
  return members;
}

/**
 * Parses /proc/<pid>/stat (proc(5)): the command name (field 2) is in
 * parentheses and may hold spaces and parentheses, so the fields are counted
 * from the last ')': state is field 3, ppid field 4, pgrp field 5, starttime field 22.
 */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const pgrp = Number(fields[2]);
  const startTicks = Number(fields[19]);
  if (!fields[0] || !Number.isInteger(pgrp) || !Number.isInteger(startTicks)) return undefined;
  return { state: fields[0], ppid: Number(fields[1]), pgrp, startTicks };
}

function procAvailable(): boolean {
  return readProcStat(process.pid) !== undefined;
}

function currentBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}
