import type { LaneManifest, LanePlugin } from '../api';

/**
 * A lane plugin whose manifest is known now and whose code loads on its first `run` or `readiness` call (once; a
 * failed load is tried again on the next call). `hasReadiness` says whether the loaded plugin has a readiness check,
 * as the registry and the readiness cache look at the property before anything is loaded.
 */
export function lazyLane(
  manifest: LaneManifest,
  hasReadiness: boolean,
  loadLane: () => Promise<LanePlugin>,
): LanePlugin {
  let loading: Promise<LanePlugin> | undefined;
  const plugin = (): Promise<LanePlugin> => {
    loading ??= loadLane().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const lane: LanePlugin = { manifest, run: async (input) => (await plugin()).run(input) };
  if (!hasReadiness) return lane;
  return {
    ...lane,
    readiness: async (input) => {
      const loaded = await plugin();
      return loaded.readiness ? loaded.readiness(input) : { ready: true };
    },
  };
}
