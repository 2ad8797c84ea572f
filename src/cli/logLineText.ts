import { plainText } from '../core/text/plainText';
import { plainTextDeep } from '../core/text/plainTextDeep';

/** How `switchyard log` shows one line of a run's log. */
export interface LogLine {
  ts: string;
  type: string;
  [key: string]: unknown;
}

/**
 * One line of a run's log as text for a terminal: a decision's message; a lane's or setup's output line as
 * `stdout| text`; a verification's verdict with its output below it, indented; anything else as compact JSON. Colour
 * escapes and other control characters are removed (the output came from a program writing for a terminal).
 */
export function logLineText(line: LogLine): string {
  const { ts, type, ...rest } = line;
  const head = `${ts} ${type.padEnd(8)} `;
  if (type === 'decision') return head + plainText(String(rest.message));
  const event = (rest.event ?? rest) as Record<string, unknown>;
  if (event.type === 'log' && typeof event.line === 'string')
    return `${head}${String(event.stream ?? 'out')}| ${plainText(event.line, { oneLine: true })}`;
  if (type === 'verify' && typeof rest.output === 'string') {
    const output = plainText(rest.output).trimEnd();
    const body = output ? `\n${output.replace(/^/gm, '    ')}` : ' (no output)';
    return `${head}${rest.ok ? 'passed' : 'failed'}${body}`;
  }
  return head + JSON.stringify(plainTextDeep(event));
}
