import type { CommandDeps } from './commandDeps';

export interface QueuePanelInfo {
  viewType: string;
  title: string;
  /** The page the webview got (its CSP, script and style links). */
  html: string;
}

/** `switchyard.openQueuePanel()` → facts about the (single) queue panel, shown or revealed. */
export async function openQueuePanel(deps: CommandDeps): Promise<QueuePanelInfo> {
  const panel = deps.panels.show();
  return { viewType: panel.viewType, title: panel.title, html: panel.webview.html };
}
