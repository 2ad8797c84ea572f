/**
 * Small hand-made SVG bar charts (one bar per lane), coloured by the theme's
 * chart colours. Each chart is an image with a text alternative that says
 * the same numbers; the table next to it has them too.
 */
const SVG = 'http://www.w3.org/2000/svg';
const BAR = 12;
const GAP = 6;
const LABEL = 90;
const WIDTH = 330;
const VALUE = 120;

export interface Bar {
  label: string;
  /** null: no data for this lane (drawn as an empty track). */
  value: number | null;
  /** A second, lighter value drawn behind the first (e.g. p90 behind p50). */
  back?: number | null;
  text: string;
}

function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A horizontal bar chart; `max` defaults to the largest value. */
export function barChart(title: string, bars: readonly Bar[], options: { max?: number; colour: string }): HTMLElement {
  const figure = document.createElement('figure');
  figure.className = 'chart';
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  const max = options.max ?? Math.max(0, ...bars.flatMap((b) => [b.value ?? 0, b.back ?? 0]));
  const height = bars.length * (BAR + GAP) + GAP;
  const svg = el('svg', {
    width: WIDTH,
    height,
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: 'img',
    'aria-label': `${title}: ${bars.map((b) => `${b.label} ${b.text}`).join('; ')}`,
  });
  const track = WIDTH - LABEL - VALUE;
  bars.forEach((b, i) => {
    const y = GAP + i * (BAR + GAP);
    svg.append(
      el(
        'text',
        { x: 0, y: y + BAR - 2, class: 'chart-label' },
        b.label.length > 14 ? `${b.label.slice(0, 13)}…` : b.label,
      ),
    );
    svg.append(el('rect', { x: LABEL, y, width: track, height: BAR, class: 'chart-track' }));
    const scale = (v: number): number => (max > 0 ? Math.max(v > 0 ? 1 : 0, (v / max) * track) : 0);
    if (b.back !== undefined && b.back !== null)
      svg.append(el('rect', { x: LABEL, y, width: scale(b.back), height: BAR, class: `chart-back ${options.colour}` }));
    if (b.value !== null)
      svg.append(el('rect', { x: LABEL, y, width: scale(b.value), height: BAR, class: `chart-bar ${options.colour}` }));
    svg.append(el('text', { x: LABEL + track + 4, y: y + BAR - 2, class: 'chart-value' }, b.text));
  });
  figure.append(caption, svg);
  return figure;
}
