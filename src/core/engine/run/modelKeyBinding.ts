import type { LaneManifest } from '../../model/laneManifest';
import type { SettingSource } from '../../store/settingsLayers';
import type { RunContext } from '../runContext';

/** Lane settings that choose where a lane sends its model requests, and so its key. */
const ENDPOINT_SETTINGS = ['baseUrl'] as const;

/**
 * Where a lane's model key may go: its default endpoint, or a base URL the user chose (set locally, in the editor, or
 * committed in a workspace the user trusts). A base URL that only the repository chose, in a workspace the user has
 * not trusted, gets no key: the run stops before the lane starts, with a permanent error that names the setting and
 * how to fix it. Decided when the key would be handed to the lane, whatever layer the settings came through.
 * `settings` are the lane's effective settings (the editor's `switchyard.lanes` among them, as layer `editor`).
 */
export async function modelKeyRefusal(
  ctx: RunContext,
  manifest: Pick<LaneManifest, 'id' | 'requiredSecrets' | 'optionalSecrets'>,
  settings: Readonly<Record<string, unknown>>,
): Promise<string | undefined> {
  const keys = [...new Set([...manifest.requiredSecrets, ...(manifest.optionalSecrets ?? [])])];
  if (!keys.length || !ctx.settingOrigin) return undefined;
  for (const name of ENDPOINT_SETTINGS) {
    const key = `laneSettings.${manifest.id}.${name}`;
    const origin = await ctx.settingOrigin(key);
    // Untrusted, the trust rule already keeps the repository's URL out of the settings; the run still stops here
    // rather than send the key to the default endpoint the repository did not mean.
    const url = settings[name] ?? origin.withheld;
    if (typeof url !== 'string') continue;
    if (!chosenByTheRepositoryAlone(origin.source, origin.trusted)) continue;
    return `lane "${manifest.id}": ${key} (${safeOrigin(url)}) comes from the repository's .switchyard/config.json and this workspace is not trusted, so ${keys.join(' / ')} is not sent there: a model key goes only to the lane's default endpoint or a base URL you set or trust. Set your own (switchyard config set --local ${key} URL), remove it, or trust the workspace (switchyard trust; in VS Code, Manage Workspace Trust)`;
  }
  return undefined;
}

function chosenByTheRepositoryAlone(source: SettingSource, trusted: boolean): boolean {
  return source === 'committed' && !trusted;
}

/** A URL's origin, without any user or password or path in it. */
function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}
