import { access } from 'node:fs/promises';
import { CONFIG_VERSION, configPath, writeProjectConfig } from '../store/projectConfig';

export { configPath } from '../store/projectConfig';

/**
 * The committed project config's path, the file created as `{"version": 1}` when missing. Needs no opened project:
 * a config the project cannot open with still opens for fixing.
 */
export async function ensureConfigFile(root: string): Promise<string> {
  const file = configPath(root);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (!exists) await writeProjectConfig(root, { version: CONFIG_VERSION });
  return file;
}
