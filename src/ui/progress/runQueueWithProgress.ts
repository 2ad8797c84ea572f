import * as vscode from 'vscode';
import type { QueueSummary } from '../../core/project/project';
import type { Run } from '../../core/model/run';
import type { Task } from '../../core/model/task';
import type { Project } from '../../core/project/project';
import { isStage } from '../../core/model/stages';
import { announceRunFinished, runFinishedLine } from './announceRunFinished';
import { showMessage } from '../views/showMessage';
import { notificationText } from '../../core/text/notificationText';
import { runEventStep } from '../../core/text/runEventText';
import { fileWaitLine } from '../../core/model/fileWaits';

/** This process, as a person names it in the texts below. */
const HERE = 'in this window';

/** The progress notification shows a run's latest step at most this often. */
const STEP_EVERY_MS = 400;

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
 * Drains the queue under a cancellable progress notification. Its Cancel means what Cancel Task means: the tasks it
 * is running are canceled (their runs stop; Retry Task puts them back) and it starts nothing more; tasks it had not
 * started stay READY. Closing the window (shutdown) stops the runs and puts their tasks back in READY.
 * Reports each run's start, its latest step (a tool call, a progress line, text) and
 * its end, and announces how each task ended.
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
      const stopClaiming = new AbortController();
      // The tasks this drain runs now, by task id: what its Cancel cancels.
      const running = new Set<string>();
      const canceled: Promise<Task | undefined>[] = [];
      const cancel = token.onCancellationRequested(() => {
        stopClaiming.abort();
        for (const id of running) canceled.push(project.tasks.cancel(id).catch(() => undefined));
      });
      const announced: Promise<unknown>[] = [];
      // The latest step of each run as it happens ("t1.1: edit_file"), not more often than STEP_EVERY_MS.
      let lastStepAt = 0;
      const steps = project.onRunEvent((runId, type, body) => {
        const step = runEventStep(type, body);
        const now = Date.now();
        if (!step || now - lastStepAt < STEP_EVERY_MS) return;
        lastStepAt = now;
        progress.report({ message: notificationText(`${runId}: ${step}`) });
      });
      try {
        const summary = await project.runQueue({
          taskIds: request.taskIds,
          signal: request.shutdown,
          stopClaiming: stopClaiming.signal,
          onRunStarted: (run, task) => {
            running.add(task.id);
            // The title already names a single task; a queue's notification names each task as it starts.
            const what = request.title.includes(task.spec.title) ? '' : `: ${task.spec.title}`;
            progress.report({
              message: notificationText(`${run.id} started${what} on ${run.lane} (attempt ${run.attempt})`),
            });
            request.onRunStarted?.(run, task);
          },
          onWaitingForFiles: (waits) => {
            progress.report({ message: notificationText(waits.map((w) => fileWaitLine(w, HERE)).join('; ')) });
          },
          onRunFinished: (run) => {
            running.delete(run.taskId);
            progress.report({ message: notificationText(runFinishedLine(run)) });
            announced.push(announceRunFinished(project, run).catch(() => undefined));
          },
        });
        await Promise.all(announced);
        const gone = (await Promise.all(canceled)).filter((t): t is Task => t?.state === 'CANCELED');
        if (gone.length)
          void showMessage(
            'info',
            `Switchyard: canceled ${gone.map((t) => `${t.id} · ${t.spec.title}`).join(', ')}: the run stopped, what it changed stays on its branch; Retry Task puts it back in the queue.`,
          );
        if (stopClaiming.signal.aborted) return summary;
        await reportSummary(project, summary, request.shutdown?.aborted === true);
        return summary;
      } finally {
        steps.dispose();
        cancel.dispose();
      }
    }),
  );
}

async function reportSummary(project: Project, summary: QueueSummary, stopped: boolean): Promise<void> {
  if (stopped) {
    void showMessage('info', 'Switchyard: queue stopped; unfinished tasks are back in READY.');
  } else if (summary.runs.length === 0) {
    const waiting = [
      ...summary.fileWaits.map((w) => fileWaitLine(w, HERE)),
      ...summary.waiting.map((w) => `${w.taskId} waits for ${w.on.join(', ')}`),
    ].join('; ');
    if (waiting) return void showMessage('info', `Switchyard: nothing to run (${waiting}).`);
    // Nothing was ready: say where the tasks at work are, by their runs' owners (this window or another process).
    // The unfinished tasks only: no finished one is needed to count them.
    const state = (await project.recentState(0).catch(() => undefined))?.state;
    const active = state?.tasks.filter((t) => isStage(t.state)) ?? [];
    const here = active.filter((t) => state?.runs.find((r) => r.id === t.lastRunId)?.owner === project.owner).length;
    const elsewhere = active.length - here;
    const places = [
      here ? `${here} task(s) are in progress ${HERE}` : '',
      elsewhere
        ? `${elsewhere} task(s) are in progress in another Switchyard process (another window, a terminal or a worker)`
        : '',
    ].filter(Boolean);
    void showMessage(
      'info',
      places.length
        ? `Switchyard: nothing to run here: no READY tasks are left; ${places.join('; ')}.`
        : 'Switchyard: nothing to run: no READY tasks.',
    );
  }
}
