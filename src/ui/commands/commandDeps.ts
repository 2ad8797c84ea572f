import type { QueuePanelController } from '../panel/queuePanelController';
import type { ProjectHost } from '../project/projectHost';
import type { ProjectSnapshot } from '../project/projectSnapshot';

/** What command handlers work with. */
export interface CommandDeps {
  readonly host: ProjectHost;
  readonly snapshot: ProjectSnapshot;
  readonly panels: QueuePanelController;
  /** Aborted when the extension deactivates; queue runs started here stop with it. */
  readonly shutdown: AbortSignal;
}
