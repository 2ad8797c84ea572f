import type { LaneRegistry } from './laneRegistry';

/**
 * The ids among `ids` (keys of `switchyard.lanes`, of the project's `laneSettings`) that no registered lane has, and
 * the one-sentence warning naming them and the lanes there are; undefined when every id is known.
 */
export function unknownLaneIds(
  ids: Iterable<string>,
  registry: LaneRegistry,
  where: string,
): { unknown: string[]; message: string } | undefined {
  const known = registry.list().map((l) => l.manifest.id);
  const unknown = [...new Set(ids)].filter((id) => !known.includes(id)).sort();
  if (!unknown.length) return undefined;
  const quoted = unknown.map((id) => `"${id}"`).join(', ');
  return {
    unknown,
    message:
      `${where} names ${unknown.length === 1 ? 'a lane that is' : 'lanes that are'} not registered: ${quoted}; ` +
      `${unknown.length === 1 ? 'it is' : 'they are'} ignored. Registered lanes: ${known.join(', ') || '(none)'}`,
  };
}
