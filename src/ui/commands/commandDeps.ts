import type { QueuePanelController } from '../panel/queuePanelController';
import type { ProjectHost } from '../project/projectHost';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import type { SecretStorageSource } from '../secrets/secretStorageSource';
import type { RunOutputChannels } from '../views/runOutputChannels';
import type { TaskDocuments } from '../prompts/taskDocuments';
import type { ArchivedTasks } from '../views/archivedTasks';
import type { TaskFilterState } from '../views/taskFilterState';

/** What command handlers work with. */
export interface CommandDeps {
  readonly host: ProjectHost;
  readonly snapshot: ProjectSnapshot;
  readonly panels: QueuePanelController;
  /** Lane API keys and the PostgreSQL connection string in VS Code's SecretStorage. */
  readonly secrets: SecretStorageSource;
  /** Aborted when the extension deactivates; queue runs started here stop with it. */
  readonly shutdown: AbortSignal;
  /** Each run's output channel: its events as they happen, or its recorded log. */
  readonly runOutput: RunOutputChannels;
  /** The task documents New Task opened, which Submit Task reads. */
  readonly taskDocuments: TaskDocuments;
  /** Clear Finished's mark: which finished tasks the tree leaves out. */
  readonly archived: ArchivedTasks;
  /** The Tasks view's filter (states, lanes, text). */
  readonly filter: TaskFilterState;
}
