import { plainLine, plainText } from './plainText';

/** How much of a tool's input or output a transcript line shows. */
const PREVIEW_CHARS = 300;

/** Where a line of a run's log came from: the lane, its review, the worktree setup, or the host. */
const SOURCES: Record<string, string> = { lane: '', review: 'review ', setup: 'setup ' };

/**
 * One event of a run (as `RunEventLog` records it: `type` and its body) as the lines a person reads in the run's
 * output: text as the lane wrote it, `[stderr] …`, `▶ tool name {input}`, `◀ result …`, `usage: …`, `— decision`.
 * Untrusted text is made plain (no escape sequences or control characters). Empty for an event with nothing to show.
 */
export function runEventText(type: string, body: Record<string, unknown>): string[] {
  const source = SOURCES[type];
  if (source === undefined) return hostLines(type, body);
  const event = (body.event ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case 'text':
      return plainText(String(event.text ?? ''))
        .split('\n')
        .map((l) => `${source}${l}`);
    case 'log':
      return [`${source}[${String(event.stream)}] ${plainLine(String(event.line ?? ''))}`];
    case 'tool-call':
      return [`${source}▶ ${plainLine(String(event.name))} ${preview(event.input)}`.trimEnd()];
    case 'tool-result':
      return [`${source}${event.isError ? '✖ error' : '◀ result'} ${preview(event.output)}`.trimEnd()];
    case 'usage':
      return [`${source}${usageLine(event.usage as Record<string, unknown> | undefined)}`];
    case 'progress':
      return [`${source}… ${plainLine(String(event.message ?? ''))}`];
    case 'session':
      return [`${source}session ${plainLine(String(event.sessionId ?? ''))}`];
    default:
      return [`${source}${plainLine(JSON.stringify(event))}`];
  }
}

/** The latest step of a run in one short line (for a progress notification), or undefined for a quiet event. */
export function runEventStep(type: string, body: Record<string, unknown>): string | undefined {
  if (type === 'decision') return undefined;
  const event = (body.event ?? {}) as Record<string, unknown>;
  if (type === 'setup') return 'setting up the worktree';
  if (type === 'verify') return 'verifying';
  if (event.type === 'tool-call') return `${type === 'review' ? 'review: ' : ''}${plainLine(String(event.name))}`;
  if (event.type === 'progress') return plainLine(String(event.message ?? ''));
  if (event.type === 'text') return cut(plainLine(String(event.text ?? '')).trim(), 80) || undefined;
  return undefined;
}

function hostLines(type: string, body: Record<string, unknown>): string[] {
  if (type === 'decision') return [`— ${plainLine(String(body.message ?? ''))}`];
  if (type === 'verify') {
    const output = plainText(String(body.output ?? '')).trimEnd();
    return [
      `— acceptance ${body.ok ? 'passed' : 'failed'}`,
      ...(output ? output.split('\n').map((l) => `  ${l}`) : []),
    ];
  }
  return [`— ${type} ${plainLine(JSON.stringify(body))}`];
}

function usageLine(usage: Record<string, unknown> | undefined): string {
  const n = (key: string): number => (typeof usage?.[key] === 'number' ? (usage[key] as number) : 0);
  const cost = n('costUsd') > 0 ? `, $${n('costUsd').toFixed(4)}` : '';
  return `usage: ${n('inputTokens')} input, ${n('outputTokens')} output tokens${cost}`;
}

function preview(value: unknown): string {
  if (value === undefined) return '';
  return cut(plainLine(typeof value === 'string' ? value : JSON.stringify(value)), PREVIEW_CHARS);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
