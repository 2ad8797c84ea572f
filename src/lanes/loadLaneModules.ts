import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LanePlugin } from '../api';
import type { LaneRegistry } from '../core/lanes/laneRegistry';
import { errorMessage } from '../core/errors';
import { importModule } from './importModule';
import { laneToolkit } from './laneToolkit';

/**
 * Loads lane modules named in project settings (a path relative to the
 * repository, or a package name) and registers their lanes. A module exports
 * `default` or `lanes`: a LanePlugin, a list of them, or a function returning
 * either, called with the lane toolkit (runApiLane, startProcessGroup, …).
 * A module that fails to load is reported, never fatal.
 */
export async function loadLaneModules(
  registry: LaneRegistry,
  root: string,
  specifiers: readonly string[],
  warn: (message: string) => void,
): Promise<void> {
  for (const specifier of specifiers) {
    const target =
      specifier.startsWith('.') || isAbsolute(specifier) ? pathToFileURL(resolve(root, specifier)).href : specifier;
    warn(`loading lane module ${specifier} from the project settings: it runs code from this repository`);
    try {
      const mod = (await importModule(target)) as { default?: unknown; lanes?: unknown };
      let exported = mod.lanes ?? mod.default;
      if (typeof exported === 'function')
        exported = await (exported as (toolkit: typeof laneToolkit) => unknown)(laneToolkit);
      const plugins = (Array.isArray(exported) ? exported : [exported]) as LanePlugin[];
      for (const plugin of plugins) registry.register(plugin);
    } catch (error) {
      warn(`lane module ${specifier} was not loaded: ${errorMessage(error)}`);
    }
  }
}
