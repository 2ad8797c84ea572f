import { openBackend } from '../../src/core/backend/openBackend';
import type { ProjectState } from '../../src/core/store/projectState';

/**
 * Changes a project's state on its files backend as another process would
 * (under the store's lock): how a test sets up what a crashed process left.
 */
export async function editState(root: string, change: (state: ProjectState) => void): Promise<void> {
  const backend = await openBackend(root);
  try {
    await backend.state.update((state) => {
      change(state);
    });
  } finally {
    await backend.close();
  }
}
