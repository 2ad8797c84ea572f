import type { ResumeCounts } from './durableCalls';
import type { JournalEvent } from './journalEvent';

export function addResumeCounts(a: ResumeCounts | undefined, b: ResumeCounts | undefined): ResumeCounts | undefined {
  if (!a || !b) return a ?? b;
  return {
    replayed: a.replayed + b.replayed,
    resent: a.resent + b.resent,
    rerun: a.rerun + b.rerun,
    uncertain: a.uncertain + b.uncertain,
  };
}

/**
 * What every resume of a run did, read from its journal: for each `resumed`
 * event, the interrupted calls it finished (an outcome for an intent written
 * before it: a model call re-sent, a tool re-run, or a `never` tool reported
 * uncertain) and the completed calls it read back (those before the first
 * call it touched; all of them when `lastReachedEnd`, the last resume having
 * got through the lane, e.g. its merge is recorded). A resume that died
 * before touching any call counts no read-backs (it left no trace of them).
 * Undefined when the run was never resumed.
 */
export function resumeCountsOf(events: readonly JournalEvent[], lastReachedEnd: boolean): ResumeCounts | undefined {
  const starts = events.flatMap((e, i) => (e.type === 'resumed' ? [i] : []));
  if (!starts.length) return undefined;
  const counts: ResumeCounts = { replayed: 0, resent: 0, rerun: 0, uncertain: 0 };
  const kindOf = new Map<number, string>();
  for (const e of events) if (e.type === 'intent') kindOf.set(e.seq, e.kind);
  starts.forEach((start, k) => {
    const resumedSeq = events[start]!.seq;
    const completed = new Set(events.slice(0, start).flatMap((e) => (e.type === 'outcome' ? [e.call] : [])));
    let firstTouched = Infinity;
    for (const e of events.slice(start + 1, starts[k + 1] ?? events.length)) {
      if (e.type !== 'intent' && e.type !== 'outcome') continue;
      firstTouched = Math.min(firstTouched, e.call);
      if (e.type !== 'outcome' || e.intent >= resumedSeq) continue;
      if (e.uncertain) counts.uncertain += 1;
      else if (kindOf.get(e.intent) === 'model') counts.resent += 1;
      else counts.rerun += 1;
    }
    const reached = k === starts.length - 1 && lastReachedEnd ? Infinity : firstTouched === Infinity ? 0 : firstTouched;
    counts.replayed += [...completed].filter((call) => call < reached).length;
  });
  return counts;
}
