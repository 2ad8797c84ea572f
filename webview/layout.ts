import { button, h, icon } from './dom';
import { TABS, type Tab } from './panelStore';

export const TAB_LABELS: Record<Tab, string> = {
  all: 'All',
  ready: 'Ready (priority order)',
  active: 'In progress',
  blocked: 'Blocked',
  failed: 'Failed',
};

/** The page's fixed parts; sections are filled in by their renderers. */
export function buildLayout(app: HTMLElement): void {
  const section = (id: string, title: string, codicon: string, ...body: HTMLElement[]): HTMLElement =>
    h(
      'section',
      { id, 'aria-labelledby': `${id}-title` },
      h('h2', { id: `${id}-title` }, icon(codicon), ` ${title}`),
      ...body,
    );
  app.replaceChildren(
    h(
      'header',
      { class: 'top' },
      h('h1', { text: 'Switchyard queue' }),
      h('span', { id: 'summary', class: 'muted', 'aria-live': 'polite' }),
      h('span', { class: 'spacer-flex' }),
      button('Run Queue', { icon: 'run-all', label: 'Run the queue', action: 'runQueue' }),
      button('Refresh', { icon: 'refresh', label: 'Refresh from disk', action: 'refresh' }),
    ),
    h('p', { id: 'banner', class: 'banner', role: 'alert', hidden: true }),
    section(
      'pipeline',
      'Pipeline',
      'pulse',
      h('div', { id: 'pipeline-body' }),
      h('div', { id: 'scheduler-body', class: 'scheduler' }),
    ),
    section(
      'queue',
      'Tasks',
      'list-unordered',
      h(
        'div',
        { class: 'list-tools' },
        h(
          'div',
          { role: 'tablist', 'aria-label': 'Task lists', id: 'tabs' },
          ...TABS.map((t) =>
            h('button', {
              type: 'button',
              role: 'tab',
              id: `tab-${t}`,
              'data-tab': t,
              'aria-controls': 'task-list',
              'aria-selected': 'false',
              tabindex: '-1',
              text: TAB_LABELS[t],
            }),
          ),
        ),
        h('input', {
          id: 'filter',
          type: 'search',
          placeholder: 'Filter by id, title, lane, state',
          'aria-label': 'Filter the tasks',
        }),
      ),
      h(
        'div',
        { class: 'split' },
        h(
          'div',
          { class: 'list-wrap' },
          h(
            'div',
            { class: 'row head', 'aria-hidden': 'true' },
            ...['State', 'Task', 'Title', 'Lane', 'Details'].map((t) => h('span', { class: 'cell', text: t })),
          ),
          h('div', {
            id: 'task-list',
            class: 'list',
            role: 'listbox',
            tabindex: '0',
            'aria-label': 'Tasks',
            'aria-describedby': 'list-help',
          }),
          h('p', { id: 'list-empty', class: 'empty', hidden: true }),
          h(
            'p',
            { id: 'list-more', class: 'muted small', hidden: true },
            h('span', { id: 'list-more-text' }),
            ' ',
            button('Show more finished tasks', {
              icon: 'history',
              label: 'Show the next page of finished tasks',
              action: 'more',
            }),
          ),
          h('p', {
            id: 'list-help',
            class: 'muted small',
            text: '↑/↓, Page Up/Down, Home/End move; Enter opens the task.',
          }),
        ),
        h('div', {
          id: 'detail',
          class: 'detail',
          role: 'region',
          'aria-label': 'Selected task',
          'aria-live': 'polite',
        }),
      ),
    ),
    section('breakers', 'Circuit breakers', 'debug-disconnect', h('div', { id: 'breakers-body' })),
    section('guards', 'Guard results', 'shield', h('div', { id: 'guards-body' })),
    section('lanes', 'Lane metrics', 'graph', h('div', { id: 'lanes-body' })),
  );
}
