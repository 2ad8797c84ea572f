import type { QueueStatusSource } from '../views/queueStatusBar';
import type { ProjectSnapshot } from './projectSnapshot';
import { queueCounts } from './queueCounts';

/** The status bar's source once the project is open: the snapshot the tree and the panel render from. */
export function snapshotStatusSource(snapshot: ProjectSnapshot): QueueStatusSource {
  void snapshot.current();
  return {
    onDidChange: snapshot.onDidChange,
    counts: () => queueCounts(snapshot.state),
    error: () => snapshot.error,
    backendDescription: () => snapshot.backend?.description,
  };
}
