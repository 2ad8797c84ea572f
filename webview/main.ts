/**
 * The queue panel's script (bundled to dist/webview.js as an iife). It renders
 * the task list the host sends, validated with the shared zod schema, keeps
 * the last one in the webview state (so a reload shows it at once), and sends
 * button clicks back as typed messages.
 */
import { HostMessage, type WebviewMessage } from '../src/ui/panel/panelProtocol';
import { byId, renderMessage } from './renderTasks';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const send = (message: WebviewMessage): void => api.postMessage(message);

function show(raw: unknown, remember: boolean): void {
  const parsed = HostMessage.safeParse(raw);
  if (!parsed.success) {
    renderMessage({ type: 'error', message: `ignored a malformed message from the extension: ${parsed.error.issues[0]?.message ?? 'unknown problem'}` }, send);
    return;
  }
  if (remember) api.setState(parsed.data);
  renderMessage(parsed.data, send);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => show(event.data, true));
byId('run-queue').addEventListener('click', () => send({ type: 'command', command: 'runQueue' }));
byId('refresh').addEventListener('click', () => send({ type: 'command', command: 'refresh' }));

const saved = api.getState();
if (saved !== undefined && saved !== null) show(saved, false);
send({ type: 'ready' });
