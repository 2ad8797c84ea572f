// Checked by `tsc --noEmit -p .`: the UI and the CLI reach a project's state
// and backend only through Project's methods; its store and backend are private.
import type { Project } from '../../src/core/project/project';

export function facadeOnly(project: Project): void {
  // @ts-expect-error the store is private: use state(), updateSettings() and the task and routing methods
  void project.store;
  // @ts-expect-error the backend is private: use backendInfo, readJournal() and onExternalChange()
  void project.backend;
  const { kind, description }: { kind: string; description: string } = project.backendInfo;
  void [kind, description];
}
