import type { HostMessage, PanelTask, WebviewMessage } from '../src/ui/panel/panelProtocol';

type Send = (message: WebviewMessage) => void;
type StateMessage = Extract<HostMessage, { type: 'state' }>;

/** Renders the task table from a host message; text only through textContent. */
export function renderMessage(message: HostMessage, send: Send): void {
  const note = byId('message');
  const counts = byId('counts');
  const body = document.querySelector<HTMLTableSectionElement>('#tasks tbody')!;
  if (message.type === 'error') {
    showNote(note, message.message);
    counts.textContent = '';
    body.replaceChildren();
    return;
  }
  renderState(message, body, counts, note, send);
}

function renderState(message: StateMessage, body: HTMLTableSectionElement, counts: HTMLElement, note: HTMLElement, send: Send): void {
  counts.textContent = `${message.counts.running} running, ${message.counts.queued} queued · default lane ${message.defaultLane}`;
  if (message.tasks.length === 0) showNote(note, 'No tasks yet. Create one with "Switchyard: New Task".');
  else note.hidden = true;
  body.replaceChildren(...message.tasks.flatMap((task) => taskRows(task, send)));
}

/** The task's row, plus a row with its failure reason when it has one. */
function taskRows(task: PanelTask, send: Send): HTMLTableRowElement[] {
  const row = document.createElement('tr');
  row.dataset.taskId = task.id;
  row.dataset.state = task.state;
  const runs = task.runs.map((r) => `${r.id} ${r.state} (${r.duration})`).join(', ');
  row.append(cell(task.id), cell(task.title, task.failureReason), cell(task.lane), cell(task.state, undefined, `state state-${task.state}`), cell(runs || '—'));
  const actions = document.createElement('td');
  if (task.state === 'READY') actions.append(button('Run', () => send({ type: 'command', command: 'runTask', taskId: task.id })));
  if (task.state === 'FAILED' || task.state === 'CANCELED') actions.append(button('Retry', () => send({ type: 'command', command: 'retryTask', taskId: task.id })));
  if (task.state !== 'DONE' && task.state !== 'CANCELED') actions.append(button('Cancel', () => send({ type: 'command', command: 'cancelTask', taskId: task.id })));
  row.append(actions);
  if (!task.failureReason) return [row];
  const reason = document.createElement('tr');
  reason.className = 'failure';
  const td = cell(task.failureReason);
  td.colSpan = 6;
  reason.append(td);
  return [row, reason];
}

function cell(text: string, title?: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (title) td.title = title;
  if (className) td.className = className;
  return td;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

function showNote(note: HTMLElement, text: string): void {
  note.textContent = text;
  note.hidden = false;
}

export function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the panel page has no #${id}`);
  return element;
}
