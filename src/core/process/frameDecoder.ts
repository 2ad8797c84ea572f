/** Frame types on the supervisor's control socket (see supervisorScript.ts). */
export const FRAME = { message: 0, stdout: 1, stderr: 2 } as const;
const HEADER_BYTES = 9;

export interface Frame {
  type: number;
  /** The group the frame is about. */
  id: number;
  payload: Buffer;
}

/** One frame: a 9-byte header (type: u8, group id: u32 BE, payload length: u32 BE), then the payload. */
export function encodeFrame(type: number, id: number, payload: Buffer): Buffer {
  const head = Buffer.allocUnsafe(HEADER_BYTES);
  head.writeUInt8(type, 0);
  head.writeUInt32BE(id, 1);
  head.writeUInt32BE(payload.length, 5);
  return Buffer.concat([head, payload]);
}

/**
 * Cuts a byte stream into frames, whatever the chunk boundaries. Only an incomplete frame is kept between chunks, so
 * a large output costs one copy of each partial frame, not of everything received so far.
 */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    let buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: Frame[] = [];
    while (buffer.length >= HEADER_BYTES) {
      const length = buffer.readUInt32BE(5);
      if (buffer.length < HEADER_BYTES + length) break;
      frames.push({
        type: buffer[0]!,
        id: buffer.readUInt32BE(1),
        payload: buffer.subarray(HEADER_BYTES, HEADER_BYTES + length),
      });
      buffer = buffer.subarray(HEADER_BYTES + length);
    }
    this.pending = buffer;
    return frames;
  }
}
