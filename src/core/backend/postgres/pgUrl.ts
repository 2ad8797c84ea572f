import { SwitchyardError } from '../../errors';

export interface PgTarget {
  url: string;
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/**
 * Parses a `postgres://` connection string; a malformed one is an error that never echoes the string (it may hold a
 * password).
 */
export function parsePgUrl(url: string): PgTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('it is not a URL');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw invalid(`its scheme is "${parsed.protocol.replace(/:$/, '')}", not postgres`);
  const database = decode(parsed.pathname.replace(/^\//, ''), 'database name');
  if (!database) throw invalid('it names no database');
  if (!parsed.hostname && !parsed.searchParams.get('host')) throw invalid('it names no host');
  return {
    url,
    host: parsed.hostname || parsed.searchParams.get('host') || '',
    port: Number(parsed.port || 5432),
    database,
    user: decode(parsed.username, 'user name'),
    password: decode(parsed.password, 'password'),
  };
}

/** `user@host:port/database`, for messages. */
export function describePgUrl(target: PgTarget): string {
  return `${target.user ? `${target.user}@` : ''}${target.host}:${target.port}/${target.database}`;
}

/** A %-decoded part; a stray `%` (common in passwords) is a clear error, not "URI malformed". */
function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw invalid(`its ${what} has a "%" that is not a %-escape: write "%" as "%25"`);
  }
}

function invalid(why: string): SwitchyardError {
  return new SwitchyardError(
    'backend-config',
    `the PostgreSQL connection string is not valid (${why}); expected postgres://user:password@host:5432/database`,
  );
}
