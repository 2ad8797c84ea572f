/**
 * Cleanup that runs whatever way a test run ends: normally (the runner's
 * `finally`), on SIGINT/SIGTERM/SIGHUP (async cleanup, then exit), and as a
 * synchronous last resort on process exit (e.g. an uncaught exception).
 */
export interface Cleanup {
  readonly name: string;
  /** Graceful: stop, wait, remove. Must be safe to call twice. */
  run(): Promise<void>;
  /** Last resort inside `process.on('exit')`: synchronous, no waiting. */
  runSync(): void;
}

const pending: Cleanup[] = [];
const SIGNALS: Record<string, number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };
let installed = false;
let signalled = false;
let inFlight: Promise<void> | undefined;

/** Registers a cleanup; the returned function unregisters it (after it ran normally). */
export function registerCleanup(cleanup: Cleanup): () => void {
  installHandlers();
  pending.push(cleanup);
  return () => {
    const index = pending.indexOf(cleanup);
    if (index >= 0) pending.splice(index, 1);
  };
}

/**
 * Runs every registered cleanup, newest first; errors are reported, not thrown.
 * Concurrent callers (the runner's `finally` and a signal) share one pass.
 */
export function runAllCleanups(): Promise<void> {
  inFlight ??= (async () => {
    while (pending.length) {
      const cleanup = pending[pending.length - 1]!;
      try {
        await cleanup.run();
      } catch (error) {
        console.error(
          `[harness] cleanup "${cleanup.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        cleanup.runSync();
      }
      const index = pending.indexOf(cleanup);
      if (index >= 0) pending.splice(index, 1);
    }
  })().finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

function installHandlers(): void {
  if (installed) return;
  installed = true;
  for (const [signal, number] of Object.entries(SIGNALS)) {
    process.on(signal, () => {
      if (signalled) {
        // A second signal: no more waiting.
        for (const cleanup of pending) cleanup.runSync();
        process.exit(128 + number);
      }
      signalled = true;
      console.error(`[harness] ${signal}: stopping code-server, the browser and their processes`);
      const force = setTimeout(() => {
        for (const cleanup of pending) cleanup.runSync();
        process.exit(128 + number);
      }, 20_000);
      force.unref();
      void runAllCleanups().finally(() => process.exit(128 + number));
    });
  }
  process.on('exit', () => {
    for (const cleanup of pending) cleanup.runSync();
  });
}
