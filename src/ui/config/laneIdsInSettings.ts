/** `switchyard.lanes`, as a settings file spells it. */
const LANES_SETTING = 'switchyard.lanes';

/**
 * The lane ids under `switchyard.lanes` in a settings file's text (JSON with comments): parsed without its comments
 * and trailing commas; text that still does not parse gives none.
 */
export function laneIdsIn(text: string): Set<string> {
  if (!text.includes(`"${LANES_SETTING}"`)) return new Set();
  const plain = text
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, string: string | undefined) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  try {
    const lanes = (JSON.parse(plain) as Record<string, unknown>)[LANES_SETTING];
    return new Set(lanes && typeof lanes === 'object' && !Array.isArray(lanes) ? Object.keys(lanes) : []);
  } catch {
    return new Set();
  }
}
