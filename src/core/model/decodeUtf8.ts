import { SwitchyardError } from '../errors';

/**
 * Decodes `bytes` as UTF-8 or refuses them: a task file, a spec file or any
 * text a user hands in is never stored with U+FFFD in place of what it said.
 * The error names `where`, the byte offset of the first byte that is not
 * valid UTF-8, its value and its line. A leading byte-order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array, where: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    const offset = firstInvalidUtf8Byte(bytes);
    if (offset < 0)
      throw new SwitchyardError('invalid-input', `${where} could not be decoded as UTF-8: ${(error as Error).message}`);
    const line = bytes.subarray(0, offset).filter((b) => b === 0x0a).length + 1;
    const hex = bytes[offset]?.toString(16).toUpperCase().padStart(2, '0') ?? '(end of file)';
    throw new SwitchyardError(
      'invalid-input',
      `${where} is not UTF-8 text: byte 0x${hex} at byte offset ${offset} (line ${line}) is not valid UTF-8; save the file as UTF-8 and try again`,
    );
  }
}

/**
 * The offset of the first byte that does not belong to a well-formed UTF-8
 * sequence (the lead byte of a sequence cut short, an overlong form, a
 * surrogate or a code point above U+10FFFF), or -1 when all are valid.
 * Follows the well-formed byte sequences table of the Unicode Standard
 * (chapter 3, table 3-7), which TextDecoder's fatal mode also implements.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k += 1) {
      const c = bytes[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (c === undefined || c < min || c > max) return i;
    }
    i += length;
  }
  return -1;
}
