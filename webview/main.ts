/**
 * The queue panel's script (bundled to dist/webview.js as an iife). Every
 * message from the host is validated with the shared schema (a bad one is
 * logged and dropped); a snapshot fills the store, patches update it, and
 * the screen is redrawn once per animation frame for whatever changed.
 * The UI state (tab, filter, selection, scroll) survives reloads through
 * getState/setState.
 */
import {
  HostMessage,
  describeIssue,
  type SectionName,
  type TaskDetail,
  type WebviewMessage,
} from '../src/core/panel/panelProtocol';
import { byId, setText } from './dom';
import { bytes, duration, plural } from './format';
import { buildLayout, TAB_LABELS } from './layout';
import { PanelStore, TABS, type Tab } from './panelStore';
import { renderBreakers } from './sections/breakersSection';
import { renderDetail } from './sections/detailSection';
import { renderGuards } from './sections/guardsSection';
import { renderLanes } from './sections/lanesSection';
import { renderPipeline, renderScheduler } from './sections/pipelineSection';
import { TaskList } from './taskList';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface UiState {
  tab: Tab;
  filter: string;
  selected?: string;
  scrollTop: number;
}

const api = acquireVsCodeApi();
const send = (message: WebviewMessage): void => api.postMessage(message);
const ui = restoreUi(api.getState());

buildLayout(byId('app'));
const store = new PanelStore();
const list = new TaskList(byId('task-list'), store, { select: (id) => select(id) });
let detail: TaskDetail | null | undefined;
let detailProblem: string | undefined;
const pending = {
  sections: new Set<SectionName>(),
  tasks: new Set<string>(),
  tabs: new Set<Tab>(),
  detail: false,
  all: false,
};
let frame = 0;

function restoreUi(raw: unknown): UiState {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Partial<UiState>;
  return {
    tab: TABS.includes(s.tab as Tab) ? (s.tab as Tab) : 'all',
    filter: typeof s.filter === 'string' ? s.filter : '',
    ...(typeof s.selected === 'string' ? { selected: s.selected } : {}),
    scrollTop: typeof s.scrollTop === 'number' ? s.scrollTop : 0,
  };
}

let saveTimer = 0;
function saveUi(): void {
  if (saveTimer) return;
  saveTimer = window.setTimeout(() => {
    saveTimer = 0;
    api.setState({ ...ui, scrollTop: list.viewport.scrollTop });
  }, 200);
}

function select(id: string | undefined): void {
  if (ui.selected === id) return;
  ui.selected = id;
  detail = undefined;
  detailProblem = undefined;
  list.setSelected(id);
  send({ type: 'select', taskId: id ?? null });
  pending.detail = true;
  schedule();
  saveUi();
}

function receive(raw: unknown): void {
  const started = performance.now();
  const parsed = HostMessage.safeParse(raw);
  if (!parsed.success) {
    console.warn(`switchyard panel: dropped a malformed message from the extension: ${describeIssue(parsed.error)}`);
    return;
  }
  const message = parsed.data;
  switch (message.type) {
    case 'snapshot': {
      store.snapshot(message.seq, message.view);
      byId('banner').hidden = true;
      pending.all = true;
      break;
    }
    case 'patch': {
      const result = store.patch(message);
      if (result.stale) {
        // A patch for another base: the host starts over with a snapshot.
        send({ type: 'ready', ...(ui.selected ? { selected: ui.selected } : {}) });
        return;
      }
      for (const id of result.tasks) pending.tasks.add(id);
      for (const s of result.sections) pending.sections.add(s);
      for (const t of result.tabs) pending.tabs.add(t);
      break;
    }
    case 'detail':
      if (message.taskId !== ui.selected) return;
      detail = message.detail;
      detailProblem = message.problem;
      pending.detail = true;
      break;
    case 'error': {
      const banner = byId('banner');
      banner.textContent = message.message;
      banner.hidden = false;
      return;
    }
  }
  performance.measure('sy:apply', { start: started, end: performance.now() });
  schedule();
}

function schedule(): void {
  if (!frame) frame = requestAnimationFrame(flush);
}

function flush(): void {
  frame = 0;
  const started = performance.now();
  const sections = store.sections;
  if (!sections) return;
  const now = Date.now();
  const all = pending.all;
  const want = (s: SectionName): boolean => all || pending.sections.has(s);
  if (want('header') || pending.tasks.size) renderSummary();
  if (want('pipeline')) renderPipeline(byId('pipeline-body'), sections.pipeline, (id) => select(id));
  if (want('scheduler')) renderScheduler(byId('scheduler-body'), sections.scheduler, now);
  if (want('breakers')) renderBreakers(byId('breakers-body'), sections.breakers, now);
  if (want('guards')) renderGuards(byId('guards-body'), sections.guards, now);
  if (want('lanes')) renderLanes(byId('lanes-body'), sections.lanes, now);
  if (all || pending.tabs.size) {
    if (all || pending.tabs.has(list.tabName)) list.refreshList();
    renderTabs();
  }
  if (!all && pending.tasks.size) list.updateRows([...pending.tasks]);
  if (all || pending.detail || (ui.selected && pending.tasks.has(ui.selected))) {
    renderDetail(
      byId('detail'),
      ui.selected ? store.tasks.get(ui.selected) : undefined,
      detail,
      detailProblem,
      send,
      now,
    );
  }
  renderListEmpty();
  pending.all = false;
  pending.detail = false;
  pending.sections.clear();
  pending.tasks.clear();
  pending.tabs.clear();
  performance.measure('sy:render', { start: started, end: performance.now() });
  document.body.dataset.seq = String(store.seq);
}

function renderSummary(): void {
  const header = store.sections!.header;
  const counts = Object.entries(header.counts)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  const wt = header.worktrees;
  const worktrees = wt
    ? ` · ${plural(wt.count, 'worktree')}${wt.bytes !== undefined && wt.count ? ` (${bytes(wt.bytes)})` : ''}`
    : '';
  const finished = header.finished?.more ? ` · the ${header.finished.shown} newest finished shown` : '';
  setText(
    byId('summary'),
    `${header.repo} · ${plural(header.total, 'task')}${counts ? ` (${counts})` : ''}${finished} · default lane ` +
      `${header.defaultLane}${worktrees}`,
  );
  const more = byId('list-more');
  more.hidden = !header.finished?.more;
  if (header.finished?.more)
    setText(
      byId('list-more-text'),
      `The ${header.finished.shown} newest finished tasks are shown; older ones are in the history.`,
    );
}

function renderTabs(): void {
  for (const tab of TABS) {
    const el = byId(`tab-${tab}`);
    setText(el, `${TAB_LABELS[tab]} (${store.count(tab)})`);
    el.setAttribute('aria-selected', String(tab === list.tabName));
    el.tabIndex = tab === list.tabName ? 0 : -1;
  }
}

function renderListEmpty(): void {
  const empty = byId('list-empty');
  if (list.length) {
    empty.hidden = true;
    return;
  }
  const filtered = ui.filter.trim() !== '';
  const text = filtered
    ? `No task matches "${ui.filter}".`
    : store.tasks.size === 0
      ? 'No tasks yet. Create one with "Switchyard: New Task" or Send to Lane….'
      : `No ${TAB_LABELS[list.tabName].toLowerCase()} tasks.`;
  setText(empty, text);
  empty.hidden = false;
}

function setTab(tab: Tab): void {
  ui.tab = tab;
  list.setTab(tab);
  renderTabs();
  renderListEmpty();
  saveUi();
}

// Header buttons, tabs (arrow keys move between them), filter.
document.addEventListener('click', (e) => {
  const target = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
  const action = target?.dataset.action;
  if (action === 'runQueue' || action === 'refresh') send({ type: 'command', command: action });
  if (action === 'more') send({ type: 'more' });
});
const tabs = byId('tabs');
tabs.addEventListener('click', (e) => {
  const tab = (e.target as HTMLElement).closest<HTMLElement>('[data-tab]')?.dataset.tab as Tab | undefined;
  if (tab) setTab(tab);
});
tabs.addEventListener('keydown', (e) => {
  const at = TABS.indexOf(list.tabName);
  const next =
    e.key === 'ArrowRight'
      ? at + 1
      : e.key === 'ArrowLeft'
        ? at - 1
        : e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? TABS.length - 1
            : -2;
  if (next === -2) return;
  e.preventDefault();
  const tab = TABS[(next + TABS.length) % TABS.length]!;
  setTab(tab);
  byId(`tab-${tab}`).focus();
});
const filter = byId<HTMLInputElement>('filter');
filter.value = ui.filter;
filter.addEventListener('input', () => {
  ui.filter = filter.value;
  list.setFilter(filter.value);
  renderListEmpty();
  saveUi();
});
list.viewport.addEventListener('scroll', () => saveUi());

// Elapsed times tick once a second, only where they are shown.
setInterval(() => {
  const now = Date.now();
  list.tick(now);
  for (const el of byId('detail').querySelectorAll<HTMLElement>('[data-since]'))
    setText(el, duration(now - Date.parse(el.dataset.since!)));
}, 1_000);

window.addEventListener('message', (event: MessageEvent<unknown>) => receive(event.data));

list.setTab(ui.tab);
list.setFilter(ui.filter);
if (ui.selected) list.setSelected(ui.selected);
renderTabs();
send({ type: 'ready', ...(ui.selected ? { selected: ui.selected } : {}) });
// Restore the scroll position once the first snapshot has laid the list out.
const restoreScroll = ui.scrollTop;
if (restoreScroll) {
  const once = (): void => {
    if (!store.loaded) return void requestAnimationFrame(once);
    list.viewport.scrollTop = restoreScroll;
  };
  requestAnimationFrame(once);
}
