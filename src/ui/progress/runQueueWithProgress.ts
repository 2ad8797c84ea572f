import * as vscode from 'vscode';
import type { QueueSummary } from '../../core/engine/queueRunner';
import type { Run } from '../../core/model/run';
import type { Task } from '../../core/model/task';
import type { Project } from '../../core/project';
import { announceRunFinished, runFinishedLine } from './announceRunFinished';
import { showMessage } from '../views/showMessage';
import { notificationText } from '../../core/text/notificationText';

export interface QueueRunRequest {
  /** The notification's title, e.g. "Switchyard: running the queue". */
  title: string;
  /** Only these tasks (default: every READY task). */
  taskIds?: readonly string[];
  onRunStarted?(run: Run, task: Task): void;
  /** Aborted when the extension shuts down: running runs stop instead of outliving the window. */
  shutdown?: AbortSignal;
}

/**
 * Drains the queue under a cancellable progress notification: cancelling
 * aborts the queue (running runs stop and their tasks go back to READY).
 * Reports each run's start and end, and announces how each task ended.
 * Titles and failure reasons are untrusted: every text shown goes through
 * notificationText (no links, no control characters).
 */
export function runQueueWithProgress(project: Project, request: QueueRunRequest): Promise<QueueSummary> {
  const options: vscode.ProgressOptions = {
    location: vscode.ProgressLocation.Notification,
    title: notificationText(request.title),
    cancellable: true,
  };
  return Promise.resolve(
    vscode.window.withProgress(options, async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      const announced: Promise<unknown>[] = [];
      try {
        const summary = await project.runQueue({
          taskIds: request.taskIds,
          signal: request.shutdown ? AbortSignal.any([controller.signal, request.shutdown]) : controller.signal,
          onRunStarted: (run, task) => {
            progress.report({
              message: notificationText(
                `${run.id} started: ${task.spec.title} on ${run.lane} (attempt ${run.attempt})`,
              ),
            });
            request.onRunStarted?.(run, task);
          },
          onRunFinished: (run) => {
            progress.report({ message: notificationText(runFinishedLine(run)) });
            announced.push(announceRunFinished(project, run).catch(() => undefined));
          },
        });
        await Promise.all(announced);
        reportSummary(summary, controller.signal.aborted || request.shutdown?.aborted === true);
        return summary;
      } finally {
        cancel.dispose();
      }
    }),
  );
}

function reportSummary(summary: QueueSummary, stopped: boolean): void {
  if (stopped) {
    void showMessage('info', 'Switchyard: queue stopped; unfinished tasks are back in READY.');
  } else if (summary.runs.length === 0) {
    const waiting = summary.waiting.map((w) => `${w.taskId} waits for ${w.on.join(', ')}`).join('; ');
    void showMessage('info', `Switchyard: nothing to run${waiting ? ` (${waiting})` : ': no READY tasks'}.`);
  }
}
