import { registerCleanup } from '../../harness/cleanup';
import { findPostgresBinDir, startPostgres } from '../../helpers/postgresServer';

/**
 * The variable the postgres backend suite reads; deliberately not SWITCHYARD_DATABASE_URL, so every other test keeps
 * the files backend.
 */
export const TEST_PG_URL_VAR = 'SWITCHYARD_TEST_PG_URL';

/**
 * For the runners: starts a throwaway PostgreSQL server, puts its URL in
 * `process.env.SWITCHYARD_TEST_PG_URL` (the editor started next inherits it)
 * and registers its stop with the harness cleanup, so it stops however the
 * run ends. Returns the stop function. Without server binaries: a note, and
 * the postgres suite skips. A server that fails to start is an error.
 */
export async function startTestPostgres(log: (message: string) => void): Promise<() => Promise<void>> {
  try {
    await findPostgresBinDir();
  } catch (error) {
    log(
      `no PostgreSQL server binaries, the postgres backend test will skip: ${error instanceof Error ? error.message : String(error)}`,
    );
    return async () => undefined;
  }
  const started = Date.now();
  const server = await startPostgres({ fsync: false });
  const unregister = registerCleanup({
    name: `PostgreSQL on port ${server.port}`,
    run: () => server.stop(),
    runSync: () => undefined,
  });
  process.env[TEST_PG_URL_VAR] = server.url;
  log(`PostgreSQL on 127.0.0.1:${server.port} ready after ${Date.now() - started} ms (${TEST_PG_URL_VAR})`);
  return async () => {
    delete process.env[TEST_PG_URL_VAR];
    await server.stop();
    unregister();
  };
}
