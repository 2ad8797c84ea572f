/** Small DOM helpers: elements are built with text only (never HTML strings). */

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function setAttrs(el: Element, attrs: Attrs): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') el.className = String(value);
    else if (name === 'text') el.textContent = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}

export function append(el: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** A codicon (`<span class="codicon codicon-NAME">`), hidden from screen readers (the text next to it says it). */
export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

/** A button with an optional codicon; `label` is its accessible name when it shows only the icon. */
export function button(
  text: string,
  options: { icon?: string; label?: string; action?: string; cls?: string; data?: Record<string, string> } = {},
): HTMLButtonElement {
  const b = h('button', {
    type: 'button',
    class: options.cls ?? 'btn',
    'aria-label': options.label,
    title: options.label ?? undefined,
    'data-action': options.action,
  });
  if (options.icon) b.append(icon(options.icon));
  if (text) b.append(h('span', { text }));
  for (const [k, v] of Object.entries(options.data ?? {})) b.dataset[k] = v;
  return b;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the panel page has no #${id}`);
  return el as T;
}

/** Replaces the element's children with `children`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Sets text only when it changed (no layout work otherwise). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** The codicon of a task or run state. */
export function stateIcon(state: string): string {
  switch (state) {
    case 'DONE':
    case 'SUCCEEDED':
      return 'pass';
    case 'FAILED':
      return 'error';
    case 'RUNNING':
      return 'sync';
    case 'VERIFYING':
      return 'beaker';
    case 'REVIEWING':
      return 'eye';
    case 'INTEGRATING':
      return 'git-merge';
    case 'AWAITING_CI':
      return 'git-pull-request';
    case 'READY':
      return 'circle-large-outline';
    case 'BLOCKED':
      return 'circle-slash';
    case 'CANCELED':
      return 'close';
    case 'CHANGES_REQUESTED':
      return 'request-changes';
    case 'STALE_RESULT':
      return 'history';
    default:
      return 'circle-outline';
  }
}

/** The codicon of a required check's state. */
export function checkIcon(state: string): string {
  switch (state) {
    case 'success':
      return 'pass';
    case 'failure':
      return 'error';
    case 'pending':
      return 'clock';
    default:
      return 'circle-large-outline';
  }
}
