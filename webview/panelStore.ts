/**
 * The webview's copy of the panel view: tasks by id plus the sections, kept
 * up to date by the host's snapshot and patches. No DOM here (unit-tested in
 * plain mocha). It also keeps each tab's ordered task list, re-sorted only
 * when a patch touched that list.
 */
import {
  PANEL_STAGES,
  SECTION_NAMES,
  type PanelPatch,
  type PanelSections,
  type PanelTask,
  type PanelView,
  type SectionName,
} from '../src/core/panel/panelProtocol';

export const TABS = ['all', 'ready', 'active', 'blocked', 'failed'] as const;
export type Tab = (typeof TABS)[number];

/** The active tab: a task in any stage of the pipeline, a pull request waiting for CI included. */
const ACTIVE = new Set<string>(PANEL_STAGES);

/** Which tabs list a task. */
export function tabsOf(task: PanelTask): Tab[] {
  const tabs: Tab[] = ['all'];
  if (task.state === 'READY') tabs.push('ready');
  else if (ACTIVE.has(task.state)) tabs.push('active');
  else if (task.state === 'BLOCKED') tabs.push('blocked');
  else if (task.state === 'FAILED') tabs.push('failed');
  return tabs;
}

export interface ApplyResult {
  /** The patch did not fit (its base is not the last applied seq): ask for a snapshot. */
  stale: boolean;
  /** Task ids upserted or removed. */
  tasks: string[];
  sections: SectionName[];
  /** Tabs whose membership or order may have changed. */
  tabs: Tab[];
}

export class PanelStore {
  readonly tasks = new Map<string, PanelTask>();
  sections: PanelSections | undefined;
  seq = -1;
  private readonly lists = new Map<Tab, string[]>();
  private readonly dirty = new Set<Tab>(TABS);

  get loaded(): boolean {
    return this.sections !== undefined;
  }

  snapshot(seq: number, view: PanelView): ApplyResult {
    this.tasks.clear();
    for (const t of view.tasks) this.tasks.set(t.id, t);
    const { tasks: _tasks, ...sections } = view;
    this.sections = sections;
    this.seq = seq;
    for (const tab of TABS) this.dirty.add(tab);
    return { stale: false, tasks: view.tasks.map((t) => t.id), sections: [...SECTION_NAMES], tabs: [...TABS] };
  }

  patch(patch: PanelPatch): ApplyResult {
    if (!this.sections || patch.base !== this.seq) return { stale: true, tasks: [], sections: [], tabs: [] };
    const tabs = new Set<Tab>();
    const ids: string[] = [];
    for (const id of patch.remove) {
      const old = this.tasks.get(id);
      if (!old) continue;
      this.tasks.delete(id);
      for (const tab of tabsOf(old)) tabs.add(tab);
      ids.push(id);
    }
    for (const task of patch.upsert) {
      const old = this.tasks.get(task.id);
      this.tasks.set(task.id, task);
      ids.push(task.id);
      if (!old) for (const tab of tabsOf(task)) tabs.add(tab);
      else if (
        old.state !== task.state ||
        old.key !== task.key ||
        old.lane !== task.lane ||
        (task.state === 'READY' && waitKind(old) !== waitKind(task))
      ) {
        for (const tab of [...tabsOf(old), ...tabsOf(task)]) tabs.add(tab);
      }
    }
    const sections: SectionName[] = [];
    for (const name of SECTION_NAMES) {
      const value = patch.sections[name];
      if (value === undefined) continue;
      (this.sections as Record<SectionName, unknown>)[name] = value;
      sections.push(name);
    }
    // The lane cost estimates weigh into the ready order.
    if (sections.includes('header')) tabs.add('ready');
    this.seq = patch.seq;
    for (const tab of tabs) this.dirty.add(tab);
    return { stale: false, tasks: ids, sections, tabs: [...tabs] };
  }

  /** The ids a tab lists, in its order (sorted again only when it changed). */
  list(tab: Tab): readonly string[] {
    if (this.dirty.has(tab) || !this.lists.has(tab)) {
      this.lists.set(tab, this.sorted(tab));
      this.dirty.delete(tab);
    }
    return this.lists.get(tab)!;
  }

  count(tab: Tab): number {
    return this.list(tab).length;
  }

  /** The score the scheduler gives a READY task at `now` (see core/scheduler/priorityScore). */
  score(task: PanelTask, now: number): number | undefined {
    if (task.key === undefined || !this.sections) return undefined;
    return this.orderKey(task) + (this.sections.header.agingPerMinute / 60_000) * now;
  }

  private orderKey(task: PanelTask): number {
    return (task.key ?? 0) - (this.sections?.header.lanePenalty[task.lane] ?? 0);
  }

  private sorted(tab: Tab): string[] {
    const members = [...this.tasks.values()].filter((t) => tabsOf(t).includes(tab));
    if (tab === 'ready') {
      // The scheduler's order: tasks in the ready set by score (ties: lower task number), then those still waiting.
      const keyed = members.map((t) => ({ t, key: this.orderKey(t), waiting: t.wait ? 1 : 0 }));
      keyed.sort((a, b) => a.waiting - b.waiting || b.key - a.key || a.t.n - b.t.n);
      return keyed.map((k) => k.t.id);
    }
    members.sort((a, b) => a.n - b.n || a.id.localeCompare(b.id));
    return members.map((t) => t.id);
  }
}

function waitKind(t: PanelTask): string {
  return t.wait ? JSON.stringify(t.wait) : '';
}
