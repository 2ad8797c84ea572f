import * as vscode from 'vscode';
import { QUEUE_PANEL_VIEW_TYPE } from '../commandIds';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { panelOptions } from './panelHtml';
import { QueuePanel } from './queuePanel';

/**
 * Keeps at most one queue panel per window, and revives it after a reload
 * (it is the panel type's serializer; the webview restores its own UI state
 * — tab, filter, selection — with getState).
 */
export class QueuePanelController implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private current: QueuePanel | undefined;
  private readonly registration: vscode.Disposable | undefined;
  private readonly log = vscode.window.createOutputChannel('Switchyard Queue Panel', { log: true });

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly snapshot: ProjectSnapshot,
    /** False when the extension's entry registered the serializer already and hands revived panels to this one. */
    registerSerializer = true,
  ) {
    this.registration = registerSerializer
      ? vscode.window.registerWebviewPanelSerializer(QUEUE_PANEL_VIEW_TYPE, this)
      : undefined;
  }

  /** Shows the panel, creating it if there is none; returns the webview panel. */
  show(): vscode.WebviewPanel {
    if (this.current) {
      this.current.reveal();
      return this.current.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      QUEUE_PANEL_VIEW_TYPE,
      'Switchyard: Queue',
      vscode.ViewColumn.Active,
      panelOptions(this.extensionUri),
    );
    this.adopt(panel);
    return panel;
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, _state: unknown): Promise<void> {
    if (this.current) {
      // One panel per window: a second restored one is redundant.
      panel.dispose();
      return;
    }
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'switchyard.svg');
    const queuePanel = new QueuePanel(panel, this.extensionUri, this.snapshot, this.log, () => {
      if (this.current === queuePanel) this.current = undefined;
    });
    this.current = queuePanel;
  }

  dispose(): void {
    this.registration?.dispose();
    this.current?.dispose();
    this.current = undefined;
    this.log.dispose();
  }
}
