/** Frame types on the supervisor's control socket (see supervisorProtocol.ts). */
export const FRAME = { message: 0, stdout: 1, stderr: 2 } as const;
const HEADER_BYTES = 9;

export interface Frame {
  type: number;
  /** The group the frame is about. */
  id: number;
  /** A message's whole payload; of an output frame, the part that arrived (output is relayed as it comes). */
  payload: Buffer;
}

/** One frame: a 9-byte header (type: u8, group id: u32 BE, payload length: u32 BE), then the payload. */
export function encodeFrame(type: number, id: number, payload: Buffer): Buffer {
  return Buffer.concat([frameHeader(type, id, payload.length), payload]);
}

/** A frame's header alone, for a writer that sends the payload after it as it is (output, never copied). */
export function frameHeader(type: number, id: number, payloadLength: number): Buffer {
  const head = Buffer.allocUnsafe(HEADER_BYTES);
  head.writeUInt8(type, 0);
  head.writeUInt32BE(id, 1);
  head.writeUInt32BE(payloadLength, 5);
  return head;
}

/**
 * Cuts a byte stream into frames, whatever the chunk boundaries. Output is handed on as slices of the chunks it
 * arrived in (never copied); only a message, and a header cut by a chunk boundary, are assembled.
 */
export class FrameDecoder {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  private current: { type: number; id: number; remaining: number } | undefined;
  private messageParts: Buffer[] = [];

  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let at = 0;
    while (at < chunk.length || (this.current && this.current.remaining === 0)) {
      if (!this.current) {
        const take = Math.min(HEADER_BYTES - this.headerFill, chunk.length - at);
        chunk.copy(this.header, this.headerFill, at, at + take);
        this.headerFill += take;
        at += take;
        if (this.headerFill < HEADER_BYTES) break;
        this.headerFill = 0;
        this.current = {
          type: this.header[0]!,
          id: this.header.readUInt32BE(1),
          remaining: this.header.readUInt32BE(5),
        };
      }
      const { type, id } = this.current;
      const take = Math.min(this.current.remaining, chunk.length - at);
      const piece = chunk.subarray(at, at + take);
      at += take;
      this.current.remaining -= take;
      const whole = this.current.remaining === 0;
      if (whole) this.current = undefined;
      if (type !== FRAME.message) {
        if (piece.length > 0) frames.push({ type, id, payload: piece });
        continue;
      }
      this.messageParts.push(piece);
      if (!whole) continue;
      frames.push({ type, id, payload: Buffer.concat(this.messageParts) });
      this.messageParts = [];
    }
    return frames;
  }
}
