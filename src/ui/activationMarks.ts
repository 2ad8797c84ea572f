/**
 * Marks the extension's entry puts on Node's performance timeline (`performance.mark`), so the integration suite,
 * which runs in the same extension host process, can tell the host's share of an activation from the extension's:
 * the entry evaluated, `activate()` called, `activate()` returned.
 */
export const ACTIVATION_MARKS = {
  loaded: 'switchyard.entry.loaded',
  activateStart: 'switchyard.activate.start',
  activateEnd: 'switchyard.activate.end',
} as const;
