import * as vscode from 'vscode';
import type { Project } from '../../core/project/project';
import { errorMessage } from '../../core/errors';
import { showMessage } from '../views/showMessage';

/**
 * Resumes runs that an earlier window or process left behind (its owner is
 * gone), in the background, and says what happened. Nothing new is started.
 */
export async function resumeInterruptedRuns(project: Project): Promise<void> {
  try {
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Switchyard: resuming interrupted runs' },
      () => project.runQueue({ resumeOnly: true }),
    );
    if (summary.resumed.length) {
      void showMessage('info', `Switchyard resumed ${summary.resumed.join(', ')} from the journal.`);
    }
    if (summary.recovered.length) {
      void showMessage('warning', `Switchyard: ${summary.recovered.join('; ')}`);
    }
  } catch (error) {
    void showMessage('error', `Switchyard could not resume interrupted runs: ${errorMessage(error)}`);
  }
}
