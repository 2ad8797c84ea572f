/** A short human duration: `850 ms`, `4.2 s`, `3 min 5 s`, `1 h 2 min`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1_000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A run's duration: the recorded one, or the time since it started while it runs. */
export function runDuration(run: { startedAt: string; durationMs?: number }, now = Date.now()): string {
  return formatDuration(run.durationMs ?? now - Date.parse(run.startedAt));
}
