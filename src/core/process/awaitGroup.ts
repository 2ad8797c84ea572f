import type { ProcessGroup, ProcessGroupExit } from './processGroup';

/**
 * Waits for a process group to end, stopping it (SIGTERM, then SIGKILL) at `timeoutMs` or when `signal` aborts:
 * the one timeout-and-cancel wait of every command a run starts (acceptance, setup, `run_command`).
 */
export async function awaitGroup(
  group: ProcessGroup,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ exit: ProcessGroupExit; timedOut: boolean }> {
  let timedOut = false;
  const stop = (): void => group.stop();
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, timeoutMs);
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  const exit = await group.done.finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  });
  return { exit, timedOut };
}
