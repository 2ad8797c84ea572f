import { readFile } from 'node:fs/promises';
import { SwitchyardError } from '../errors';
import { fileAtCommit } from '../git/changedFiles';
import type { JournalRead } from '../journal/journalReader';
import { diffPath, eventsPath, readRunLog, type RunLogLine } from '../store/runFiles';
import { type RunChanges, runChanges } from '../workspace/runChanges';
import { findRun } from './findRun';
import type { ProjectCore } from './projectCore';

export type { RunChanges } from '../workspace/runChanges';

/** `project.runs`: what a run left behind (its journal, event log, diff, changed files) and the repository's files. */
export class RunService {
  constructor(private readonly core: ProjectCore) {}

  /** The run's durable journal, validated. */
  journal(runId: string): Promise<JournalRead & { where: string }> {
    return this.core.ctx.journals.read(runId);
  }

  /** The run's event log, oldest first. */
  log(runId: string): Promise<RunLogLine[]> {
    return readRunLog(eventsPath(this.core.root, runId));
  }

  /** The diff captured when the run finished. */
  async diff(runId: string): Promise<string> {
    const run = await findRun(this.core.store, runId);
    return readFile(diffPath(this.core.root, runId), 'utf8').catch(() => {
      throw new SwitchyardError('unknown-run', `run ${runId} has no captured diff (state ${run.state})`);
    });
  }

  /** The files a run changed between the task's base and the run's commit. */
  async changes(runId: string): Promise<RunChanges> {
    return runChanges(this.core.root, await findRun(this.core.store, runId));
  }

  /** A file's text at a commit of this repository; undefined when the commit has no such file. */
  fileAt(commit: string, path: string): Promise<string | undefined> {
    return fileAtCommit(this.core.root, commit, path);
  }
}
