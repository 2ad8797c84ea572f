import { SECTION_NAMES, type PanelPatch, type PanelTask, type PanelView, type SectionName } from './panelProtocol';

/** What was last sent: the task rows by id, and the sections as text. */
export interface ViewIndex {
  readonly tasks: ReadonlyMap<string, PanelTask>;
  readonly sections: Readonly<Record<SectionName, string>>;
}

export function indexView(view: PanelView): ViewIndex {
  return {
    tasks: new Map(view.tasks.map((t) => [t.id, t])),
    sections: Object.fromEntries(SECTION_NAMES.map((name) => [name, JSON.stringify(view[name])])) as Record<
      SectionName,
      string
    >,
  };
}

export type PatchBody = Pick<PanelPatch, 'upsert' | 'remove' | 'sections'>;

/**
 * The incremental update from the last view sent (`before`) to `next`:
 * tasks added or changed (upserts, whole rows), tasks gone (removals by id),
 * and the sections whose content changed. `empty` when nothing did. Returns
 * the index of `next` for the following diff.
 */
export function diffPanelView(
  before: ViewIndex,
  next: PanelView,
): { patch: PatchBody; empty: boolean; index: ViewIndex } {
  const index = indexView(next);
  const upsert: PanelTask[] = [];
  for (const task of next.tasks) {
    const old = before.tasks.get(task.id);
    if (!old || !sameTask(old, task)) upsert.push(task);
  }
  const remove: string[] = [];
  for (const id of before.tasks.keys()) if (!index.tasks.has(id)) remove.push(id);
  const sections: PatchBody['sections'] = {};
  for (const name of SECTION_NAMES) {
    if (before.sections[name] !== index.sections[name]) (sections as Record<string, unknown>)[name] = next[name];
  }
  return {
    patch: { upsert, remove, sections },
    empty: upsert.length === 0 && remove.length === 0 && Object.keys(sections).length === 0,
    index,
  };
}

/** Two task rows (plain JSON data) hold the same values. */
export function sameTask(a: PanelTask, b: PanelTask): boolean {
  return sameJson(a, b);
}

function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x)) return Array.isArray(y) && x.length === y.length && x.every((v, i) => sameJson(v, y[i]));
  if (Array.isArray(y)) return false;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys)
    if (!sameJson((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key])) return false;
  return true;
}
