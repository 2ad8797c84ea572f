import { access } from 'node:fs/promises';
import { type ConfigEdit, editProjectConfig } from '../engine/commands/projectConfigEdits';
import { mergePolicyDeprecation, mergePolicyPath } from '../guards/mergePolicy';
import { projectConfigProblems } from '../store/projectConfig';
import { resolveKey } from '../store/settingKeys';
import type { ProjectSettings } from '../store/projectState';
import { type LayeredSettings, within } from '../store/settingsLayers';
import { untrustedNotice } from '../store/untrustedNotice';
import type { ProjectCore } from './projectCore';

export type { ConfigEdit } from '../engine/commands/projectConfigEdits';
export type { LayeredSettings } from '../store/settingsLayers';
export { getPath, within } from '../store/settingsLayers';

/** `project.settings`: the effective settings, their layers, what trust withholds, and edits to them. */
export class SettingsService {
  constructor(private readonly core: ProjectCore) {}

  /** The effective settings, without reading the tasks' history. */
  async read(): Promise<ProjectSettings> {
    return (await this.core.store.readWorking()).settings;
  }

  /** Changes the stored settings in one store transaction; returns them as that transaction left them. */
  update(change: (settings: ProjectSettings) => void): Promise<ProjectSettings> {
    return this.core.command(() =>
      this.core.store.update((s) => {
        change(s.settings);
        return s.settings;
      }),
    );
  }

  /** The effective settings, where each comes from (default, committed, local) and what the committed file ignored. */
  layers(): Promise<LayeredSettings> {
    return this.core.store.layers();
  }

  /** Sets or (no `text`) unsets a config key in the committed file, or with `local` in this machine's override. */
  edit(edit: ConfigEdit): Promise<{ file: string; value: unknown }> {
    return this.core.command(() => editProjectConfig(this.core.root, this.core.store, edit));
  }

  /**
   * What the workspace's trust withholds, as one message: the settings the repository carries that were ignored (by
   * file and class), and the tasks of a state file that came with it; nothing withheld: undefined.
   */
  async configNotice(): Promise<string | undefined> {
    const [{ ignored }, held] = await Promise.all([this.core.store.layers(), this.core.store.heldState()]);
    return untrustedNotice(this.core.root, ignored, held);
  }

  /**
   * What the workspace's trust withholds of `key` (the key, a setting inside it or the group it is in), as one
   * message; nothing: undefined. Said right after `config set` stores a value that will not apply.
   */
  async ignoredNotice(key: string): Promise<string | undefined> {
    const { ignored } = await this.core.store.layers();
    const hits = ignored.filter((i) => within(i.key, key) || within(key, i.key));
    return untrustedNotice(this.core.root, hits, []);
  }

  /** Checks a dotted settings key; an unknown key is an `invalid-input` error naming the nearest valid key. */
  checkKey(key: string): void {
    resolveKey(key);
  }

  /** What of the committed config is ignored (invalid entries), one message each; none: valid or missing. */
  configProblems(): Promise<string[]> {
    return projectConfigProblems(this.core.root);
  }

  /** The note about a deprecated `.switchyard/merge-policy.json` when the repository still has one. */
  async deprecationNotice(): Promise<string | undefined> {
    const present = await access(mergePolicyPath(this.core.root)).then(
      () => true,
      () => false,
    );
    return present ? mergePolicyDeprecation(this.core.root) : undefined;
  }
}
