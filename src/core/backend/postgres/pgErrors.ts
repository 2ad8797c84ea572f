/**
 * SQLSTATEs worth retrying: connection exceptions, shutdown and startup, too many connections, serialization failures
 * and deadlocks.
 */
const TRANSIENT_STATES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01']);
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** Messages of the driver and the server when a connection is lost, refused or not ready yet. */
const CONNECTION_LOST = new RegExp(
  [
    'Connection terminated',
    'connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'the database system is (starting up|shutting down)',
    'terminating connection',
  ].join('|'),
  'i',
);

/** Whether a failed database operation may succeed if tried again once the server is back. */
export function isTransientPgError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (TRANSIENT_STATES.has(code) || code.startsWith('08') || TRANSIENT_CODES.has(code)))
    return true;
  const message = error instanceof Error ? error.message : '';
  return CONNECTION_LOST.test(message);
}
