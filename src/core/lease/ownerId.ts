import { hostname } from 'node:os';

/**
 * `name/pid/nonce`; `name` defaults to the host name (a worker may name itself; then only its lease tells whether it is
 * gone).
 */
export function makeOwnerId(name = hostname()): string {
  return `${name.replaceAll('/', '-')}/${process.pid}/${Math.random().toString(36).slice(2, 8)}`;
}

/** True when `owner` names a process on this host that is no longer alive. */
export function ownerIsGone(owner: string | undefined): boolean {
  if (!owner) return true;
  const [host, pid] = owner.split('/');
  if (host !== hostname()) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
