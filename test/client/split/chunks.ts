/**
 * What every split-invariance property shares: the ways one byte string can be cut into chunks
 * (anywhere, 1-byte chunks, whole), and text that is awkward to cut (multi-byte UTF-8 of 2, 3 and
 * 4 bytes, a BOM, NUL, colons and spaces, any code point).
 */
import fc from 'fast-check';

/** Cuts `bytes` at the given positions (taken modulo its length; repeats and order do not matter). */
export function cut(bytes: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const at = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const end of [...at, bytes.length]) {
    if (end > start) chunks.push(bytes.subarray(start, end));
    start = Math.max(start, end);
  }
  return chunks;
}

/** Every byte a chunk of its own. */
export function bytewise(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}

/** Cut positions for `cut`: a few or many, anywhere. */
export const cutPositions = fc.array(fc.nat({ max: 1 << 16 }), { maxLength: 40 });

/** A character that is awkward on the wire: several UTF-8 lengths, BOM, NUL, or any code point but CR and LF. */
export const awkwardChar = fc.oneof(
  fc.constantFrom(' ', ':', 'a', 'é', '€', '中', '😀', '\0', '\uFEFF', '"', '\\'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\r' && c !== '\n'),
);

/** Text of awkward characters, with no line break. */
export const awkwardText = (maxLength: number) => fc.string({ unit: awkwardChar, maxLength });

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const BOM = '\uFEFF';
