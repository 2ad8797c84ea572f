import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ownerIsGone } from './ownerId';
import { ProcessGroupRecord } from '../process/processGroupRecord';

/** A run's lease; `groups` are the process groups its owner has alive for it (see killRecordedGroups.ts). */
export const Lease = z
  .object({
    owner: z.string(),
    heartbeatAt: z.string(),
    expiresAt: z.string(),
    groups: z.array(ProcessGroupRecord).optional(),
  })
  .strict();
export type Lease = z.infer<typeof Lease>;

/** Reads a lease file synchronously (it is read inside the store's lock); missing or unreadable reads as none. */
export function readLeaseSync(file: string): Lease | undefined {
  try {
    const parsed = Lease.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a run owned by `owner` may be taken over: its lease has expired,
 * or its owner is a process on this host that is gone. A run without a lease
 * file counts as expired once `graceMs` have passed since it started.
 */
export function leaseIsFree(
  lease: Lease | undefined,
  owner: string | undefined,
  startedAt: string,
  now: number,
  graceMs: number,
): boolean {
  if (ownerIsGone(lease?.owner ?? owner)) return true;
  if (!lease) return now - Date.parse(startedAt) > graceMs;
  return Date.parse(lease.expiresAt) < now;
}

/**
 * Writes `owner`'s lease (temp file + rename). Call it only while holding the
 * store lock. The recorded process groups are kept while the owner stays the
 * same (a renewal) unless `groups` replaces them; a new owner starts with none.
 */
export function writeLeaseSync(file: string, owner: string, durationMs: number, groups?: ProcessGroupRecord[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const now = Date.now();
  const current = groups === undefined ? readLeaseSync(file) : undefined;
  const kept = groups ?? (current?.owner === owner ? current.groups : undefined);
  const lease: Lease = {
    owner,
    heartbeatAt: new Date(now).toISOString(),
    expiresAt: new Date(now + durationMs).toISOString(),
    ...(kept?.length ? { groups: kept } : {}),
  };
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(lease));
  renameSync(temp, file);
}

/**
 * Replaces the process groups recorded with `owner`'s lease (its expiry unchanged); no-op when someone else holds it.
 * Under the store lock.
 */
export function writeLeaseGroupsSync(file: string, owner: string, groups: ProcessGroupRecord[]): void {
  const current = readLeaseSync(file);
  if (current?.owner !== owner) return;
  const { groups: _old, ...rest } = current;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(groups.length ? { ...rest, groups } : rest));
  renameSync(temp, file);
}
