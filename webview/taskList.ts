import type { PanelTask } from '../src/core/panel/panelProtocol';
import { checkIcon, h, icon, setText, stateIcon } from './dom';
import { clock, duration, usd } from './format';
import type { PanelStore, Tab } from './panelStore';

/** Row height in pixels (the CSS uses the same). */
export const ROW_HEIGHT = 26;
const OVERSCAN = 8;
const MAX_ROWS = 14;

export interface TaskListEvents {
  select(taskId: string): void;
}

/**
 * The task list of one tab, virtualized: only the rows in view (plus a few)
 * exist in the DOM, keyed by task id and reused while they stay in view; a
 * patch re-renders only the rows it touched. A listbox: arrow keys, Page
 * Up/Down, Home/End move the active row, Enter or Space opens it.
 */
export class TaskList {
  private tab: Tab = 'all';
  private filter = '';
  private ids: readonly string[] = [];
  private readonly rows = new Map<string, HTMLElement>();
  private active = 0;
  private selected: string | undefined;
  private frame = 0;
  readonly spacer: HTMLElement;

  constructor(
    readonly viewport: HTMLElement,
    private readonly store: PanelStore,
    private readonly events: TaskListEvents,
  ) {
    this.spacer = h('div', { class: 'spacer', role: 'presentation' });
    viewport.append(this.spacer);
    viewport.addEventListener('scroll', () => this.schedule());
    viewport.addEventListener('keydown', (e) => this.key(e));
    viewport.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('[data-task-id]');
      if (!row) return;
      const index = this.ids.indexOf(row.dataset.taskId!);
      if (index >= 0) this.activate(index, false);
      this.choose(row.dataset.taskId!);
    });
    new ResizeObserver(() => this.schedule()).observe(viewport);
  }

  get tabName(): Tab {
    return this.tab;
  }

  get length(): number {
    return this.ids.length;
  }

  /** The ids shown now, in order. */
  get shown(): readonly string[] {
    return this.ids;
  }

  setTab(tab: Tab): void {
    if (tab === this.tab) return;
    this.tab = tab;
    this.active = 0;
    this.viewport.scrollTop = 0;
    this.refreshList();
  }

  setFilter(text: string): void {
    const next = text.trim().toLowerCase();
    if (next === this.filter) return;
    this.filter = next;
    this.active = 0;
    this.refreshList();
  }

  setSelected(id: string | undefined): void {
    this.selected = id;
    for (const [rowId, row] of this.rows) row.setAttribute('aria-selected', String(rowId === id));
  }

  /** The list's membership or order changed: take it from the store again. */
  refreshList(): void {
    const list = this.store.list(this.tab);
    this.ids = this.filter ? list.filter((id) => matches(this.store.tasks.get(id), this.filter)) : list;
    if (this.active >= this.ids.length) this.active = Math.max(0, this.ids.length - 1);
    this.spacer.style.height = `${this.ids.length * ROW_HEIGHT}px`;
    // Short lists take only their rows' height; long ones scroll within MAX_ROWS.
    this.viewport.style.height = `${Math.min(MAX_ROWS, Math.max(3, this.ids.length)) * ROW_HEIGHT + 2}px`;
    this.viewport.setAttribute('aria-rowcount', String(this.ids.length));
    // Rows keep their element but may have moved: all are placed again.
    for (const row of this.rows.values()) row.dataset.index = '';
    this.render();
  }

  /** These tasks changed: re-render their rows if they are in view. */
  updateRows(ids: readonly string[]): void {
    for (const id of ids) {
      const row = this.rows.get(id);
      const task = this.store.tasks.get(id);
      if (row && task) this.fillRow(row, task);
    }
  }

  /** Time-derived text (elapsed, waited) of the rows in view. */
  tick(now: number): void {
    for (const row of this.rows.values()) {
      for (const el of row.querySelectorAll<HTMLElement>('[data-since]'))
        setText(el, duration(now - Date.parse(el.dataset.since!)));
    }
  }

  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Renders the rows in view now. */
  render(): void {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.ids.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const keep = new Set<string>();
    for (let i = first; i < last; i++) {
      const id = this.ids[i]!;
      keep.add(id);
      let row = this.rows.get(id);
      const task = this.store.tasks.get(id);
      if (!task) continue;
      if (!row) {
        row = h('div', { class: 'row', role: 'option', id: rowDomId(id), 'data-task-id': id });
        this.rows.set(id, row);
        this.fillRow(row, task);
        this.spacer.append(row);
      }
      if (row.dataset.index !== String(i)) {
        row.dataset.index = String(i);
        row.style.transform = `translateY(${i * ROW_HEIGHT}px)`;
        row.setAttribute('aria-posinset', String(i + 1));
        if (this.tab === 'ready') this.fillRow(row, task);
      }
      row.setAttribute('aria-setsize', String(this.ids.length));
      row.setAttribute('aria-selected', String(id === this.selected));
      row.classList.toggle('active', i === this.active);
    }
    for (const [id, row] of this.rows) {
      if (keep.has(id)) continue;
      row.remove();
      this.rows.delete(id);
    }
    const activeId = this.ids[this.active];
    if (activeId && this.rows.has(activeId)) this.viewport.setAttribute('aria-activedescendant', rowDomId(activeId));
    else this.viewport.removeAttribute('aria-activedescendant');
  }

  private fillRow(row: HTMLElement, task: PanelTask): void {
    const now = Date.now();
    row.dataset.state = task.state;
    const rank = this.tab === 'ready' && !task.wait ? `#${Number(row.dataset.index || 0) + 1} ` : '';
    const details = info(task, this.store, now);
    row.setAttribute(
      'aria-label',
      `${task.id} ${task.title}, ${task.state}, lane ${task.lane}${details.textContent ? `, ${details.textContent}` : ''}`,
    );
    row.replaceChildren(
      h(
        'span',
        { class: `cell state state-${task.state}` },
        icon(stateIcon(task.state)),
        h('span', { text: task.state }),
      ),
      h('span', { class: 'cell id', text: `${rank}${task.id}` }),
      h('span', { class: 'cell title', text: task.title, title: task.title }),
      h('span', {
        class: `cell lane${task.laneOverride ? ' override' : ''}`,
        text: task.lane,
        title: task.laneOverride ? 'set on the task' : 'the project default lane',
      }),
      details,
    );
  }

  private key(e: KeyboardEvent): void {
    if (!this.ids.length) return;
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: page,
      PageUp: -page,
      Home: -Infinity,
      End: Infinity,
    };
    if (e.key in moves) {
      e.preventDefault();
      const to = Math.min(this.ids.length - 1, Math.max(0, this.active + moves[e.key]!));
      this.activate(to, true);
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const id = this.ids[this.active];
      if (id) this.choose(id);
    }
  }

  private activate(index: number, scroll: boolean): void {
    this.active = index;
    if (scroll) {
      const top = index * ROW_HEIGHT;
      const vp = this.viewport;
      if (top < vp.scrollTop) vp.scrollTop = top;
      else if (top + ROW_HEIGHT > vp.scrollTop + vp.clientHeight) vp.scrollTop = top + ROW_HEIGHT - vp.clientHeight;
    }
    this.render();
  }

  private choose(id: string): void {
    this.setSelected(id);
    this.events.select(id);
  }
}

export function rowDomId(taskId: string): string {
  return `task-row-${taskId.replace(/[^\w-]/g, '_')}`;
}

function matches(task: PanelTask | undefined, filter: string): boolean {
  return !!task && `${task.id} ${task.title} ${task.lane} ${task.state}`.toLowerCase().includes(filter);
}

/** The last column: why a READY task waits or its score, a BLOCKED task's blockers, a running task's run, a failure. */
function info(task: PanelTask, store: PanelStore, now: number): HTMLElement {
  const cell = h('span', { class: 'cell info' });
  if (task.state === 'READY') {
    if (task.wait?.kind === 'deps') cell.append(icon('debug-pause'), ` waits on ${task.wait.on.join(', ')} (not DONE)`);
    else if (task.wait?.kind === 'backoff')
      cell.append(icon('watch'), ` retry backoff until ${clock(task.wait.until, now)}`);
    else if (task.wait?.kind === 'file')
      cell.append(icon('lock'), ` waits for ${task.wait.file}, held by ${task.wait.heldBy}`);
    else {
      const score = store.score(task, now);
      cell.append(
        `score ${score === undefined ? '?' : score.toFixed(1)} · priority ${task.priority}` +
          `${task.urgent ? ' · urgent' : ''}${task.unblocks ? ` · unblocks ${task.unblocks}` : ''} · waited `,
      );
      cell.append(h('span', { 'data-since': task.since, text: duration(now - Date.parse(task.since)) }));
    }
    return cell;
  }
  if (task.state === 'BLOCKED') {
    const blockers = (task.blockedBy ?? []).map((id) => `${id} (${store.tasks.get(id)?.state ?? 'unknown'})`);
    cell.textContent = blockers.length ? `blocked by ${blockers.join(', ')}` : 'blocked by a dependency';
    return cell;
  }
  if (task.pr && (task.state === 'AWAITING_CI' || task.state === 'DONE')) return prCell(cell, task.pr);
  const run = task.run;
  if (run && run.state === 'RUNNING') {
    cell.append(
      `${run.id} · attempt ${run.attempt} · `,
      h('span', { 'data-since': run.startedAt, text: duration(now - Date.parse(run.startedAt)) }),
    );
    return cell;
  }
  if (task.failureReason && task.state !== 'DONE') {
    cell.classList.add('failure');
    cell.textContent = task.failureReason;
    cell.title = task.failureReason;
    return cell;
  }
  if (run)
    cell.textContent = `${run.id} · ${duration(run.durationMs)}${run.costUsd !== undefined ? ` · ${usd(run.costUsd)}` : ''}`;
  return cell;
}

/** `PR #12 open` and a mark per required check (its name in the mark's label). */
function prCell(cell: HTMLElement, pr: NonNullable<PanelTask['pr']>): HTMLElement {
  cell.classList.add('pr');
  cell.append(icon(pr.state === 'merged' ? 'git-merge' : 'git-pull-request'), ` PR #${pr.number} ${pr.state}`);
  for (const c of pr.checks)
    cell.append(
      ' ',
      h(
        'span',
        { class: `check check-${c.state}`, title: `${c.name}: ${c.state}` },
        icon(checkIcon(c.state)),
        ` ${c.name}`,
      ),
    );
  if (!pr.checks.length && pr.state === 'open') cell.append(' · no required checks recorded');
  return cell;
}
