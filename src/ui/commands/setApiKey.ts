import * as vscode from 'vscode';
import { pickSecret } from '../prompts/pickSecret';
import { required } from '../prompts/promptCanceled';
import { laneIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';
import { showMessage } from '../views/showMessage';

export interface SetApiKeyResult {
  laneId: string;
  secret: string;
  /** `stored`, or `cleared` for an empty value. Never the value. */
  action: 'stored' | 'cleared';
}

/**
 * `switchyard.setApiKey(laneId?, secretName?, value?)`: stores a lane's key in
 * VS Code's SecretStorage (the OS keychain), never in settings. Without
 * arguments: a QuickPick of the lanes' keys, then a password input; an empty
 * value removes the stored key.
 */
export async function setApiKey(
  deps: CommandDeps,
  laneArg?: unknown,
  secretArg?: unknown,
  valueArg?: unknown,
): Promise<SetApiKeyResult> {
  const laneId = laneIdFrom(laneArg);
  let target: { laneId: string; secret: string };
  if (laneId) {
    const { manifest } = deps.host.registry.require(laneId);
    const declared = [...manifest.requiredSecrets, ...manifest.optionalSecrets];
    if (!declared.length) throw new Error(`lane "${laneId}" declares no API key`);
    const secret = typeof secretArg === 'string' && secretArg ? secretArg : declared[0]!;
    if (!declared.includes(secret))
      throw new Error(`lane "${laneId}" has no secret ${secret}; it declares ${declared.join(', ')}`);
    target = { laneId, secret };
  } else {
    target = await pickSecret(deps.host.registry, deps.secrets);
  }
  const value =
    typeof valueArg === 'string'
      ? valueArg
      : required(
          await vscode.window.showInputBox({
            title: `Switchyard: ${target.secret} for lane ${target.laneId}`,
            prompt: `Stored in VS Code's secret storage (the OS keychain), never in settings or logs. Leave empty to remove the stored ${target.secret}.`,
            password: true,
            ignoreFocusOut: true,
          }),
        );
  if (!value.trim()) {
    await deps.secrets.delete(target.secret);
    void deps.host.get().then(
      (p) => p.lanes.statuses(true),
      () => undefined,
    );
    void showMessage('info', `Switchyard: removed ${target.secret} from VS Code's secret storage.`);
    return { ...target, action: 'cleared' };
  }
  await deps.secrets.store(target.secret, value.trim());
  // The lane pickers check readiness again (the key is there now).
  void deps.host.get().then(
    (p) => p.lanes.statuses(true),
    () => undefined,
  );
  void showMessage('info', `Switchyard: ${target.secret} is stored for lane ${target.laneId}; the next run uses it.`);
  return { ...target, action: 'stored' };
}
