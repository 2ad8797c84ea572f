import { EventEmitter } from 'node:events';
import { SwitchyardError, errorMessage } from '../errors';
import { LaneManifest, SUPPORTED_LANE_API_VERSIONS } from '../model/laneManifest';
import { describeZodError } from '../model/zodIssues';
import type { Disposable, LanePlugin } from './lanePlugin';

export interface RegisteredLane {
  readonly manifest: LaneManifest;
  readonly plugin: LanePlugin;
}

/** The lanes this process knows. Registering returns a Disposable that removes the lane. */
export class LaneRegistry {
  private readonly lanes = new Map<string, RegisteredLane>();
  private readonly events = new EventEmitter();

  register(plugin: LanePlugin): Disposable {
    let raw: unknown;
    try {
      raw = plugin.manifest;
    } catch (error) {
      throw new SwitchyardError(
        'invalid-manifest',
        `lane plugin threw while its manifest was read: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    const parsed = LaneManifest.safeParse(raw);
    const label = typeof (raw as { id?: unknown })?.id === 'string' ? `lane "${(raw as { id: string }).id}"` : 'lane';
    if (!parsed.success) {
      throw new SwitchyardError(
        'invalid-manifest',
        `${label} has an invalid manifest: ${describeZodError(parsed.error)}`,
      );
    }
    const manifest = parsed.data;
    if (!SUPPORTED_LANE_API_VERSIONS.includes(manifest.apiVersion)) {
      throw new SwitchyardError(
        'unsupported-api-version',
        `${label} needs lane API version ${manifest.apiVersion}; this Switchyard supports ${SUPPORTED_LANE_API_VERSIONS.join(', ')}`,
      );
    }
    if (typeof plugin.run !== 'function') {
      throw new SwitchyardError('invalid-manifest', `${label} has no run() function`);
    }
    if (this.lanes.has(manifest.id)) {
      throw new SwitchyardError('duplicate-lane', `a lane with id "${manifest.id}" is already registered`);
    }
    const entry: RegisteredLane = { manifest, plugin };
    this.lanes.set(manifest.id, entry);
    this.events.emit('change');
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        if (this.lanes.get(manifest.id) === entry) {
          this.lanes.delete(manifest.id);
          this.events.emit('change');
        }
      },
    };
  }

  get(id: string): RegisteredLane | undefined {
    return this.lanes.get(id);
  }

  /** Like `get`, but an unknown id is an error that lists the lanes there are. */
  require(id: string): RegisteredLane {
    const lane = this.lanes.get(id);
    if (!lane) {
      const known = [...this.lanes.keys()];
      throw new SwitchyardError(
        'unknown-lane',
        `unknown lane "${id}"; registered lanes: ${known.length ? known.join(', ') : '(none)'}`,
      );
    }
    return lane;
  }

  list(): RegisteredLane[] {
    return [...this.lanes.values()].sort((a, b) => a.manifest.id.localeCompare(b.manifest.id));
  }

  onDidChange(listener: () => void): Disposable {
    this.events.on('change', listener);
    return { dispose: () => this.events.off('change', listener) };
  }
}
