import assert from 'node:assert/strict';
import { modelKeyRefusal } from '../../../src/core/engine/run/modelKeyBinding';
import type { RunContext } from '../../../src/core/engine/runContext';
import type { SettingSource } from '../../../src/core/store/settingsLayers';

const manifest = { id: 'openai-compatible', requiredSecrets: ['OPENAI_COMPATIBLE_API_KEY'], optionalSecrets: [] };
const settings = { baseUrl: 'https://models.example.test/v1', model: 'm' };

/** A run context whose settings say `baseUrl` came from `source`, in a workspace trusted or not. */
function from(source: SettingSource, trusted: boolean): RunContext {
  return {
    settingOrigin: async (key: string) => {
      assert.equal(key, 'laneSettings.openai-compatible.baseUrl');
      return { source, trusted };
    },
  } as unknown as RunContext;
}

describe('modelKeyRefusal: where a model key may go, by where the base URL came from', () => {
  it('refuses a base URL only the repository chose, in an untrusted workspace, naming the setting', async () => {
    const refusal = await modelKeyRefusal(from('committed', false), manifest, settings);
    assert.match(
      refusal ?? '',
      /laneSettings\.openai-compatible\.baseUrl \(https:\/\/models\.example\.test\) comes from/,
    );
  });

  it('sends it to a base URL the user set, in the editor (switchyard.lanes) or locally, trusted or not', async () => {
    for (const source of ['editor', 'local'] as const)
      assert.equal(await modelKeyRefusal(from(source, false), manifest, settings), undefined, source);
    assert.equal(await modelKeyRefusal(from('committed', true), manifest, settings), undefined, 'trusted');
  });
});
