import { isDeepStrictEqual } from 'node:util';
import type { FinishedPage, ListFinishedOptions, StateStore } from './stateStore';
import type { LeaseView } from '../lease/leaseStore';
import { type ConfigObject, readProjectConfig } from '../store/projectConfig';
import type { Task } from '../model/task';
import type { ProjectSettings, ProjectState } from '../store/projectState';
import {
  applyEditorOverrides,
  applyLocalChange,
  type LayeredSettings,
  type LayerTrust,
  layerSettings,
} from '../store/settingsLayers';
import type { LaneSettingClass } from '../store/settingClassOf';

/** What the store asks at each read: whether the workspace is trusted, and whether the state came with the clone. */
export interface TrustSource {
  trusted(): boolean | Promise<boolean>;
  /**
   * Switchyard's files under `.switchyard/` that git tracks (they came with the repository); any: the state counts as
   * the repository's (see `stateFromRepository` in LayerTrust).
   */
  trackedState(): string[] | Promise<string[]>;
  laneClass: LaneSettingClass;
}

/**
 * The state as the engine sees it: its settings are the effective ones (defaults < committed `.switchyard/config.json`
 * < the state's own, machine-local settings), on every backend. A change to the effective settings is written back
 * into the state as a local override; the committed values never enter the state. The editor's settings (VS
 * Code's settings, the lanes' included), when given, lie on top of all of them and never enter the state either; they
 * are asked for at each read, so an edit applies from the next read (a run's plan is fixed at its claim).
 */
export class LayeredStateStore implements StateStore {
  /** The last layering and what it was computed from: the same inputs give the same settings (layering is pure). */
  private last:
    | {
        local: ProjectSettings;
        committed: ConfigObject | undefined;
        trust: Trust;
        editor: Readonly<Record<string, unknown>>;
        layered: LayeredSettings;
      }
    | undefined;

  constructor(
    private readonly inner: StateStore,
    private readonly root: string,
    private readonly trustSource: TrustSource,
    private readonly editor: () => Readonly<Record<string, unknown>> = () => ({}),
  ) {}

  /** Whether the workspace is trusted and whether the state came with the repository, as of now. */
  private async trusted(): Promise<Trust> {
    // Trusted, where the state came from does not matter: git is not asked.
    const trusted = await this.trustSource.trusted();
    return { trusted, stateFromRepository: !trusted && (await this.trustSource.trackedState()).length > 0 };
  }

  /** The layered settings, shared: callers copy `settings` before handing it to anyone who may change it. */
  private layer(local: ProjectSettings, committed: ConfigObject | undefined, trust: Trust): LayeredSettings {
    const last = this.last;
    const editor = this.editor();
    if (
      last &&
      last.trust.trusted === trust.trusted &&
      last.trust.stateFromRepository === trust.stateFromRepository &&
      isDeepStrictEqual(last.local, local) &&
      isDeepStrictEqual(last.committed, committed) &&
      isDeepStrictEqual(last.editor, editor)
    )
      return last.layered;
    const layerTrust: LayerTrust = { ...trust, laneClass: this.trustSource.laneClass };
    const layered = applyEditorOverrides(layerSettings(local, committed, layerTrust), editor);
    this.last = {
      local: structuredClone(local),
      committed: structuredClone(committed),
      trust,
      editor: structuredClone(editor),
      layered,
    };
    return layered;
  }

  private effective(local: ProjectSettings, committed: ConfigObject | undefined, trust: Trust): ProjectSettings {
    return structuredClone(this.layer(local, committed, trust).settings);
  }

  /**
   * The tracked state files whose tasks are held (they came with the repository and it is not trusted: none runs);
   * empty when none is.
   */
  async heldState(): Promise<string[]> {
    return (await this.trustSource.trusted()) ? [] : [...(await this.trustSource.trackedState())];
  }

  read(): Promise<ProjectState> {
    return this.withEffectiveSettings(this.inner.read());
  }

  /** The working set (see StateStore), with the effective settings. */
  readWorking(): Promise<ProjectState> {
    return this.withEffectiveSettings(this.inner.readWorking());
  }

  /** `reading`'s state with the effective settings: its stored ones under the committed file, as trust allows. */
  private async withEffectiveSettings(reading: Promise<ProjectState>): Promise<ProjectState> {
    const [state, committed, trusted] = await Promise.all([reading, readProjectConfig(this.root), this.trusted()]);
    state.settings = this.effective(state.settings, committed, trusted);
    return state;
  }

  listFinished(options: ListFinishedOptions): Promise<FinishedPage> {
    return this.inner.listFinished(options);
  }

  findFinished(ids: Iterable<string>): Promise<Map<string, Task>> {
    return this.inner.findFinished(ids);
  }

  update<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.layered(change, false);
  }

  updateWorking<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.layered(change, true);
  }

  private async layered<T>(change: (state: ProjectState, leases: LeaseView) => T, working: boolean): Promise<T> {
    const [committed, trusted] = await Promise.all([readProjectConfig(this.root), this.trusted()]);
    const apply = (working ? this.inner.updateWorking : this.inner.update).bind(this.inner);
    return apply((state, leases) => {
      const local = state.settings;
      const before = this.layer(local, committed, trusted).settings;
      state.settings = structuredClone(before);
      try {
        return change(state, leases);
      } finally {
        const after = state.settings;
        state.settings = local;
        // The usual change leaves the settings alone: nothing to write back.
        if (!isDeepStrictEqual(before, after)) applyLocalChange(local, before, after);
      }
    });
  }

  /** The effective settings with where each comes from and what the committed file had ignored. */
  async layers(): Promise<LayeredSettings> {
    const [state, committed, trusted] = await Promise.all([
      this.inner.readWorking(),
      readProjectConfig(this.root),
      this.trusted(),
    ]);
    const layered = this.layer(state.settings, committed, trusted);
    return {
      ...layered,
      settings: structuredClone(layered.settings),
      sources: new Map(layered.sources),
      ignored: layered.ignored.map((i) => ({ ...i })),
      ...(layered.editorIgnored ? { editorIgnored: [...layered.editorIgnored] } : {}),
    };
  }

  /** Changes the machine-local settings as stored, without the committed layer. */
  updateLocal<T>(change: (local: ProjectSettings) => T): Promise<T> {
    return this.inner.update((state) => change(state.settings));
  }
}

interface Trust {
  trusted: boolean;
  stateFromRepository: boolean;
}
