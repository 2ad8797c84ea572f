/** The first port of slot 0's block; slot n has PORT_BASE + PORT_BLOCK_SIZE × n … + PORT_BLOCK_SIZE - 1. */
export const PORT_BASE = 42_000;
export const PORT_BLOCK_SIZE = 10;
const MAX_SLOT = Math.floor((65_535 - PORT_BASE) / PORT_BLOCK_SIZE) - 1;

/** The lowest slot no active run holds, so two runs in flight at once never get the same port block. */
export function freePortSlot(taken: Iterable<number | undefined>): number {
  const used = new Set(taken);
  let slot = 0;
  while (used.has(slot) && slot < MAX_SLOT) slot++;
  return slot;
}

/** The variables that give a run its port block (lane, worktree setup and acceptance command). */
export function portBlockEnv(slot: number | undefined): Record<string, string> {
  if (slot === undefined) return {};
  return {
    SWITCHYARD_PORT: String(PORT_BASE + PORT_BLOCK_SIZE * slot),
    SWITCHYARD_PORT_COUNT: String(PORT_BLOCK_SIZE),
  };
}
