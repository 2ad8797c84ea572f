import { join } from 'node:path';
import { STATE_DIR } from '../store/stateDir';

/**
 * The files backend's state file, relative to the repository's top (`.switchyard/state.json`, with `/`, as a glob
 * takes it): the status bar reads it as plain JSON at start, before the project is opened (this module stays small
 * for that).
 */
export const STATE_FILE = `${STATE_DIR}/state.json`;

/** The files backend's state file of the repository at `root`. */
export function stateFilePath(root: string): string {
  return join(root, STATE_FILE);
}
