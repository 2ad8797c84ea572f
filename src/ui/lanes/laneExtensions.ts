import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { LANES_CONTRIBUTION, laneContributions } from './laneContributions';

/** How long Switchyard waits for one lane extension to activate before it goes on without its lanes. */
const ACTIVATION_TIMEOUT_MS = 15_000;

/**
 * The extensions that contribute lanes (`"contributes": { "switchyard.lanes": [{ "id": "my-lane" }] }` in their
 * package.json), activated by Switchyard before it needs their lanes: before every command (the lane pickers, Send
 * to Lane…, a task routed to a lane, Run Queue) and before a window resumes interrupted runs. Their `activate()`
 * registers the lanes through `getAPI(1).registerLane`, so a lane extension needs no activation events of its own.
 * An extension that fails to activate, or takes longer than 15 s, is reported once; its lanes stay unregistered and
 * a task routed to one fails saying the lane is not registered.
 */
export class LaneExtensions {
  private readonly activations = new Map<string, Promise<void>>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly selfId: string,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  /** The installed extensions that contribute lanes, with their lane ids; an invalid contribution is reported. */
  contributors(): { extension: vscode.Extension<unknown>; laneIds: string[] }[] {
    const found: { extension: vscode.Extension<unknown>; laneIds: string[] }[] = [];
    for (const extension of vscode.extensions.all) {
      if (extension.id === this.selfId) continue;
      const contributed = laneContributions(extension.packageJSON);
      if (!contributed.ok) this.reportOnce(extension.id, `Switchyard ignores ${extension.id}: ${contributed.reason}`);
      else if (contributed.laneIds.length) found.push({ extension, laneIds: contributed.laneIds });
    }
    return found;
  }

  /** Activates every lane extension that is not active yet; resolves when each has activated or given up. */
  activate(): Promise<void> {
    const pending = this.contributors()
      .filter(({ extension }) => !extension.isActive)
      .map(({ extension }) => this.activateOne(extension));
    return pending.length ? Promise.all(pending).then(() => undefined) : Promise.resolve();
  }

  private activateOne(extension: vscode.Extension<unknown>): Promise<void> {
    let activation = this.activations.get(extension.id);
    if (!activation) {
      activation = withTimeout(Promise.resolve(extension.activate()), ACTIVATION_TIMEOUT_MS).then(
        (finished) => {
          if (!finished)
            this.reportOnce(
              extension.id,
              `Switchyard: the lane extension ${extension.id} did not finish activating within ${ACTIVATION_TIMEOUT_MS / 1000} s; its lanes (contributes["${LANES_CONTRIBUTION}"]) stay unregistered until it does.`,
            );
        },
        (error: unknown) => {
          // Tried again the next time a lane is needed (the extension may have been updated or fixed).
          this.activations.delete(extension.id);
          this.reportOnce(
            extension.id,
            `Switchyard: the lane extension ${extension.id} failed to activate: ${errorMessage(error)}`,
          );
        },
      );
      this.activations.set(extension.id, activation);
    }
    return activation;
  }

  private reportOnce(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warn(message);
  }
}

/** true once `promise` resolved, false when `ms` passed first; rejects with it. */
function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}
