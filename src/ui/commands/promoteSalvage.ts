import * as vscode from 'vscode';
import type { PromoteOptions, Promotion } from '../../core/project/worktreeService';
import type { ProjectState } from '../../core/project/project';
import { required } from '../prompts/promptCanceled';
import { isTaskTreeNode } from '../views/taskTreeNodes';
import { runIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';
import { showMessage } from '../views/showMessage';
import { quickPickText } from '../prompts/quickPickText';

/**
 * `switchyard.promoteSalvage(runId | item, {to?, onto?})` → the Promotion.
 * Puts a failed or interrupted run's salvaged work on a branch of the user's
 * (default `salvage/<run>`, at the salvage commit); the working tree is never
 * touched. From the tree or the palette it asks for the branch name; called
 * with a run id it uses the given options or the defaults.
 */
export async function promoteSalvage(deps: CommandDeps, arg?: unknown, options?: unknown): Promise<Promotion> {
  const project = await deps.host.get();
  const state = await project.state();
  const given = runIdFrom(arg);
  const runId = given ?? (await pickSalvagedRun(state));
  let chosen = promoteOptions(options);
  // From the tree or the palette: ask for the branch. A call with data (tests, other extensions) does not.
  if (arg === undefined || isTaskTreeNode(arg)) {
    const to = await vscode.window.showInputBox({
      title: `Promote the salvaged work of ${runId}`,
      prompt: 'Branch to create (or fast-forward) at the salvage commit. Your working tree is not touched.',
      value: chosen.to ?? `salvage/${runId}`,
      ignoreFocusOut: true,
    });
    chosen = { ...chosen, to: required(to).trim() || `salvage/${runId}` };
  }
  const result = await project.worktrees.promoteSalvage(runId, chosen);
  void showMessage(
    'info',
    result.action === 'unchanged'
      ? `Switchyard: ${result.branch} already holds the salvaged work of ${runId}.`
      : `Switchyard: the salvaged work of ${runId} (${result.files} file(s)) is on branch ${result.branch}.`,
  );
  return result;
}

function promoteOptions(value: unknown): PromoteOptions {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object') throw new Error(`expected {to?, onto?}, got ${JSON.stringify(value)}`);
  const { to, onto } = value as Record<string, unknown>;
  if ((to !== undefined && typeof to !== 'string') || (onto !== undefined && typeof onto !== 'string')) {
    throw new Error(`expected {to?: string, onto?: string}, got ${JSON.stringify(value)}`);
  }
  return { ...(to ? { to } : {}), ...(onto ? { onto } : {}) };
}

async function pickSalvagedRun(state: ProjectState): Promise<string> {
  const runs = state.runs.filter((r) => r.salvage).reverse();
  if (!runs.length) throw new Error('no run has salvaged work: only failed or interrupted runs that left changes do');
  const picked = await vscode.window.showQuickPick(
    runs.map((r) => ({
      label: r.id,
      description: quickPickText(`${r.state} · ${r.salvage!.files} file(s) on ${r.salvage!.branch}`),
      detail: r.failureReason && quickPickText(r.failureReason),
      runId: r.id,
    })),
    { placeHolder: 'Promote the salvaged work of which run?', ignoreFocusOut: true },
  );
  return required(picked).runId;
}
