import type { ModelMessage } from 'ai';

/** Characters per token of the estimate (Anthropic's and OpenAI's rule of thumb for English and code). */
export const CHARS_PER_TOKEN = 4;
/** A request past this share of the window is compacted first… */
export const COMPACT_AT = 0.8;
/** …down to this share, so the next compactions (and the cache misses they cause) come seldom. */
export const COMPACT_TO = 0.5;
/** The latest messages kept whole (the last two turns: the model's calls and their results). */
export const KEEP_LATEST = 4;
/** An older tool result longer than this is cut to its head and tail. */
const LONG_RESULT = 2_000;
const HEAD = 800;
const TAIL = 400;
const CUT_MARK = '[Switchyard cut this older tool result';
const DROP_MARK = '[Switchyard removed';

/** The estimated tokens of a value sent to the model: its JSON text over CHARS_PER_TOKEN. */
export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface CompactionReport {
  /** Estimated prompt tokens before and after. */
  before: number;
  after: number;
  /** Older tool results cut to head and tail, and whole early turns removed. */
  cutResults: number;
  removedTurns: number;
}

/**
 * Keeps a conversation within the model's context window: when the request (`fixedTokens` for the system prompt and
 * the tools, plus the messages) is estimated past COMPACT_AT of `window`, older tool results are cut to their head and
 * tail with a note of what was cut (oldest first), and if that is not enough the earliest turns are removed whole, with
 * a note, until the estimate is at most COMPACT_TO of the window. The task message (the first) and the latest
 * KEEP_LATEST messages stay whole. Changes `messages` in place; a pure function of its inputs, so a resumed run that
 * rebuilds the same messages compacts them the same way. `scale` corrects the estimate by what the provider reported
 * for an earlier request (≥ 1).
 */
export function compactConversation(
  messages: ModelMessage[],
  options: { window: number; fixedTokens: number; scale?: number },
): CompactionReport | undefined {
  const scale = Math.max(1, options.scale ?? 1);
  // Each message's estimate, kept in step with `messages` (JSON of a long conversation is costly to redo).
  const sizes = messages.map((m) => estimateTokens(m));
  let sum = sizes.reduce((n, t) => n + t, 0);
  const estimate = (): number => Math.ceil((options.fixedTokens + sum) * scale);
  const replace = (i: number, message: ModelMessage): void => {
    messages[i] = message;
    const size = estimateTokens(message);
    sum += size - sizes[i]!;
    sizes[i] = size;
  };
  const before = estimate();
  if (before <= options.window * COMPACT_AT) return undefined;
  const target = options.window * COMPACT_TO;
  let cutResults = 0;
  let removedTurns = 0;
  const protectedFrom = (): number => Math.max(1, messages.length - KEEP_LATEST);

  for (let i = 1; i < protectedFrom() && estimate() > target; i++) {
    const message = messages[i]!;
    if (message.role !== 'tool') continue;
    let changed = false;
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result') return part;
      const output = part.output;
      if ((output.type !== 'text' && output.type !== 'error-text') || output.value.length <= LONG_RESULT) return part;
      if (output.value.startsWith(CUT_MARK)) return part;
      changed = true;
      return { ...part, output: { ...output, value: headAndTail(output.value) } };
    });
    if (changed) {
      replace(i, { ...message, content } as ModelMessage);
      cutResults += 1;
    }
  }

  while (estimate() > target) {
    // The removable turns: from the first assistant message after the task (and an earlier removal note) up to the
    // next assistant message, so the conversation still alternates and every tool result follows its call.
    const start = messages.findIndex((m, i) => i > 0 && m.role === 'assistant');
    if (start < 0) break;
    let end = start + 1;
    while (end < messages.length && messages[end]!.role !== 'assistant') end++;
    if (end > protectedFrom()) break;
    messages.splice(start, end - start);
    for (const size of sizes.splice(start, end - start)) sum -= size;
    removedTurns += 1;
    const note = messages[1];
    const earlier = note && isDropNote(note) ? Number(/removed (\d+)/.exec(String(note.content))?.[1] ?? 0) : 0;
    const text = `${DROP_MARK} ${earlier + 1} earlier turn(s) of this conversation to stay within the model's context window. Files may have changed since you last read them: read again what you need.]`;
    if (note && isDropNote(note)) replace(1, { role: 'user', content: text });
    else {
      messages.splice(1, 0, { role: 'user', content: text });
      sizes.splice(1, 0, 0);
      replace(1, messages[1]!);
    }
  }
  if (!cutResults && !removedTurns) return undefined;
  return { before, after: estimate(), cutResults, removedTurns };
}

function isDropNote(message: ModelMessage): boolean {
  return message.role === 'user' && typeof message.content === 'string' && message.content.startsWith(DROP_MARK);
}

function headAndTail(text: string): string {
  const cut = text.length - HEAD - TAIL;
  return (
    `${CUT_MARK} to its first ${HEAD} and last ${TAIL} characters (${cut} characters in between not shown) to stay within the context window; call the tool again if you need the rest]\n${text.slice(0, HEAD)}\n[…]\n` +
    text.slice(-TAIL)
  );
}

/**
 * A tool's output capped for one call: a share of the window (in characters), head and tail kept, with a note of the
 * cut.
 */
export function capToolOutput(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.75);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n[… ${text.length - maxChars} characters cut here: this output is longer than one tool call may send (${maxChars} characters); narrow the call to see them …]\n${text.slice(-tail)}`;
}
