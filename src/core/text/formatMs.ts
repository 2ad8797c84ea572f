/** `850 ms`, `1.5 s`, `12 min`: a duration as people read it. */
export function formatMs(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms % 1_000 ? 1 : 0)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
