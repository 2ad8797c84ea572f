import type { AgentTool } from '../agentTool';
import { editFileTool } from './editFile';
import { finishTool } from './finish';
import { listDirTool } from './listDir';
import { readFileTool } from './readFile';
import { runCommandTool, type RunCommandOptions } from './runCommand';
import { searchTool } from './searchFiles';
import { verdictTool } from './verdict';
import { writeFileTool } from './writeFile';

export { FINISH, FinishInput } from './finish';
export { VERDICT, VerdictInput } from './verdict';

/** The API lanes' tools: read, list, search, write, edit, run a command, finish. */
export function agentTools(options: RunCommandOptions): AgentTool[] {
  return [readFileTool, listDirTool, searchTool, writeFileTool, editFileTool, runCommandTool(options), finishTool];
}

/** A review's tools: read, list, search, run a check, and the verdict; nothing that writes. */
export function reviewTools(options: RunCommandOptions): AgentTool[] {
  return [readFileTool, listDirTool, searchTool, runCommandTool(options), verdictTool];
}
