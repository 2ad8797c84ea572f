import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.showMoreFinished()` → how many finished tasks the Tasks tree shows after the next page is loaded
 * (the tree's "Show more finished tasks…" row), and whether older ones are still left out.
 */
export async function showMoreFinished(deps: CommandDeps): Promise<{ shown: number; more: boolean }> {
  const recent = await deps.snapshot.showMore('tree');
  return { shown: recent?.finished.length ?? 0, more: recent?.more ?? false };
}
