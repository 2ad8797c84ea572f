import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into lines. A chunk may end mid-line or mid-character;
 * the rest waits for the next chunk. `end()` returns what was left without a
 * newline: the last line of a stream that was cut mid-way.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  push(chunk: Buffer | string): string[] {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const parts = this.pending.split('\n');
    this.pending = parts.pop() ?? '';
    return parts.map(stripCr);
  }

  /** The unterminated remainder, if any (the stream ended mid-line). */
  end(): string | undefined {
    const rest = stripCr(this.pending + this.decoder.end());
    this.pending = '';
    return rest.length ? rest : undefined;
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
