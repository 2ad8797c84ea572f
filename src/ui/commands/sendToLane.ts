import * as vscode from 'vscode';
import { z } from 'zod';
import { LaneId, type Task } from '../../core/model/task';
import { describeZodError } from '../../core/model/zodIssues';
import { runOnSend } from '../config/switchyardConfig';
import { startTaskRun } from '../progress/startTaskRun';
import { hostLanes, pickLane } from '../prompts/pickLane';
import { required } from '../prompts/promptCanceled';
import { isSendOptions } from './commandArgs';
import type { CommandDeps } from './commandDeps';
import { repoRelativeFile } from './repoRelativeFile';

const SendOptions = z
  .object({
    lane: LaneId.optional(),
    instruction: z.string().trim().min(1, 'the instruction must not be empty').optional(),
  })
  .strict();
const TITLE_MAX = 200;

/**
 * `switchyard.sendToLane(uri, {lane, instruction})` → the created Task: files = [the file relative to the
 * repo root], title = the instruction's first line, spec = the instruction. Unless `switchyard.runOnSend`
 * is false the task starts at once (the returned Task is as stored once its run started).
 * Missing parts are asked for; without a uri the active editor's file is used.
 */
export async function sendToLane(deps: CommandDeps, uriArg?: unknown, optionsArg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  const uri = uriArg instanceof vscode.Uri ? uriArg : vscode.window.activeTextEditor?.document.uri;
  if (!uri) throw new Error('Send to Lane needs a file: open one in the editor or right-click it in the Explorer');
  const file = await repoRelativeFile(project.root, uri);
  const parsed = SendOptions.safeParse(isSendOptions(optionsArg) ? optionsArg : {});
  if (!parsed.success) throw new Error(`Send to Lane: ${describeZodError(parsed.error)}`);

  const lane = parsed.data.lane ?? (await pickLane(hostLanes(deps.host), `Send ${file} to which lane?`));
  const instruction =
    parsed.data.instruction ?? (await askInstruction(file, deps.host.registry.require(lane).manifest.displayName));
  const task = await project.tasks.add({
    title: titleFromInstruction(instruction),
    spec: instruction,
    files: [file],
    lane,
  });
  return runOnSend() ? startTaskRun(project, task, deps.shutdown) : task;
}

/** The first non-empty line, at most 200 characters (cut with an ellipsis), as New Task allows. */
export function titleFromInstruction(instruction: string): string {
  const line =
    instruction
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return line.length <= TITLE_MAX ? line : `${line.slice(0, TITLE_MAX - 1).trimEnd()}…`;
}

async function askInstruction(file: string, laneName: string): Promise<string> {
  const value = await vscode.window.showInputBox({
    title: `Switchyard: Send ${file} to ${laneName}`,
    prompt: 'Instruction for the agent (the first line becomes the task title)',
    placeHolder: 'e.g. Add unit tests for the date parser',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'an instruction is needed'),
  });
  return required(value).trim();
}
