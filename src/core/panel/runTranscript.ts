import type { RunLogLine } from '../store/runFiles';
import { plainLine, plainText } from '../text/plainText';
import type { RunTranscript, TranscriptEntry } from './panelProtocol';

/** The most entries a transcript sends to the panel (the last ones). */
export const TRANSCRIPT_ENTRIES = 200;
const PREVIEW_CHARS = 2_000;
const LOG_LINES = 200;

/**
 * A run's transcript from its log: the lane's own events (not its review's or the setup's), a tool call paired with
 * its result, consecutive output lines of one stream as one entry. Undefined when the lane recorded nothing.
 */
export function runTranscript(runId: string, log: readonly RunLogLine[]): RunTranscript | undefined {
  const entries: TranscriptEntry[] = [];
  const calls = new Map<string, Extract<TranscriptEntry, { kind: 'tool' }>>();
  for (const line of log) {
    if (line.type !== 'lane') continue;
    const event = (line.event ?? {}) as Record<string, unknown>;
    const last = entries.at(-1);
    switch (event.type) {
      case 'text': {
        const text = plainText(String(event.text ?? '')).trim();
        if (text) entries.push({ kind: 'text', text: cut(text) });
        break;
      }
      case 'log': {
        const stream = String(event.stream);
        const text = plainLine(String(event.line ?? ''));
        if (last?.kind === 'log' && last.stream === stream && last.lines.length < LOG_LINES) last.lines.push(text);
        else entries.push({ kind: 'log', stream, lines: [text] });
        break;
      }
      case 'tool-call': {
        const entry = {
          kind: 'tool',
          name: plainLine(String(event.name)),
          input: preview(event.input),
          isError: false,
        };
        calls.set(String(event.callId), entry as Extract<TranscriptEntry, { kind: 'tool' }>);
        entries.push(entry as TranscriptEntry);
        break;
      }
      case 'tool-result': {
        const call = calls.get(String(event.callId));
        if (call) {
          call.output = preview(event.output);
          call.isError = event.isError === true;
        } else {
          const output = preview(event.output);
          entries.push({ kind: 'tool', name: 'result', input: '', output, isError: event.isError === true });
        }
        break;
      }
      case 'usage': {
        const u = (event.usage ?? {}) as Record<string, number | undefined>;
        const cost = u.costUsd ? `, $${u.costUsd.toFixed(4)}` : '';
        entries.push({
          kind: 'usage',
          text: `${u.inputTokens ?? 0} input, ${u.outputTokens ?? 0} output tokens${cost}`,
        });
        break;
      }
    }
  }
  if (!entries.length) return undefined;
  const omitted = Math.max(0, entries.length - TRANSCRIPT_ENTRIES);
  return { runId, entries: entries.slice(omitted), omitted };
}

function preview(value: unknown): string {
  if (value === undefined) return '';
  return cut(plainText(typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
}

function cut(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}
