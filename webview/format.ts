/** Text formats of the panel (pure, shared by every section). */

/** `850 ms`, `4.2 s`, `3 min 5 s`, `1 h 2 min`. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1_000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `$0.0123`, `$1.20`; undefined: "not reported". */
export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'not reported';
  if (value !== 0 && Math.abs(value) < 0.01) return `$${value.toFixed(4)}`;
  return `$${value.toFixed(2)}`;
}

export function pct(value: number | null | undefined): string {
  return value === null || value === undefined
    ? 'no data'
    : `${(value * 100).toFixed(value === 1 || value === 0 ? 0 : 1)}%`;
}

/** `14:03:05` today, else `2024-05-01 14:03`. */
export function clock(iso: string, now = Date.now()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const sameDay = new Date(now).toDateString() === d.toDateString();
  const hms = d.toTimeString().slice(0, 8);
  return sameDay ? hms : `${d.toISOString().slice(0, 10)} ${hms.slice(0, 5)}`;
}

/** `3 s ago`, `in 12 s`. */
export function relative(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return iso;
  return ms >= 0 ? `in ${duration(ms)}` : `${duration(-ms)} ago`;
}

/** Counts with a noun: `1 task`, `3 tasks`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `12.3 MB`: a size in powers of 1000. */
export function bytes(value: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = value;
  let unit = 0;
  while (v >= 1000 && unit < units.length - 1) {
    v /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${v} B` : `${v.toFixed(1)} ${units[unit]}`;
}
