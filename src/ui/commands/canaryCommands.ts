import * as vscode from 'vscode';
import { formatCanaryReport, formatRoutingHistory } from '../../core/report/formatRouting';
import type { CanaryThresholds } from '../../core/project/routingService';
import type { RoutingChange } from '../../core/model/routingState';
import { SwitchyardError } from '../../core/errors';
import { hostLanes, pickLane } from '../prompts/pickLane';
import { laneIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';
import { showReport } from '../views/reportDocument';
import { showMessage } from '../views/showMessage';

interface CanaryOptions extends Partial<CanaryThresholds> {
  why?: string;
}

/** `switchyard.startCanary(laneId?, {holdBelow, expandAtCost, windowMs, minSamples, why}?)` → the recorded change. */
export async function startCanaryCommand(
  deps: CommandDeps,
  laneArg?: unknown,
  options: CanaryOptions = {},
): Promise<RoutingChange | undefined> {
  const project = await deps.host.get();
  const current = (await project.state()).settings.defaultLane;
  const lane =
    laneIdFrom(laneArg) ??
    (await pickLane(hostLanes(deps.host), `Canary lane (the baseline is the current default, ${current})`));
  const why = options.why ?? (await askWhy(`Why try lane ${lane} as a canary?`));
  if (why === undefined) return undefined;
  const { why: _, ...thresholds } = options;
  const change = await project.routing.startCanary(lane, thresholds, why);
  const c = change.next.canary!;
  void showMessage(
    'info',
    `Switchyard: canary started — default lane ${change.previous.defaultLane} → ${lane}. Hold below ${c.holdBelow * 100}% of baseline completion; expand at cost ≤ ${c.expandAtCost * 100}%.`,
  );
  return change;
}

/** `switchyard.rollbackCanary({why}?)` → the recorded change that restored the previous default lane. */
export async function rollbackCanaryCommand(
  deps: CommandDeps,
  options: { why?: string } = {},
): Promise<RoutingChange | undefined> {
  const project = await deps.host.get();
  const why = options.why ?? (await askWhy('Why roll the canary back?'));
  if (why === undefined) return undefined;
  const change = await project.routing.rollbackCanary(why);
  void showMessage(
    'info',
    `Switchyard: canary rolled back — default lane ${change.previous.defaultLane} → ${change.next.defaultLane}.`,
  );
  return change;
}

/** `switchyard.showCanaryReport()` → the report text, opened read-only. */
export async function showCanaryReportCommand(deps: CommandDeps): Promise<string> {
  const project = await deps.host.get();
  const report = await project.routing.canaryReport();
  if (!report)
    throw new SwitchyardError('invalid-input', 'No canary is running: start one with "Switchyard: Start Canary".');
  const text = `${formatCanaryReport(report)}\n\nRouting changes:\n${formatRoutingHistory((await project.state()).routing.history)}\n`;
  await showReport('canary-report', text);
  return text;
}

async function askWhy(prompt: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    prompt,
    placeHolder: 'recorded with your name and the time',
    validateInput: (v) => (v.trim() ? undefined : 'A reason is required: it is recorded with the change.'),
  });
}
