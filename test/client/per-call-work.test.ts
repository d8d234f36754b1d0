/**
 * The client's work per message and per call, counted rather than timed (counts hold on a loaded
 * machine): what bench/client.mjs measures as CPU against a raw client. Behaviour is covered
 * elsewhere (split/, calls.test.ts); these guard the cost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StdioLines } from '../../src/runtime/client/stdio-lines.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('stdio lines', () => {
  it('decodes each line once, when its LF arrives, however many chunks it came in', () => {
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    const toString = vi.spyOn(Buffer.prototype, 'toString');
    const lines: string[] = [];
    const reader = new StdioLines((line) => lines.push(line));
    const text = '\uFEFF' + JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'é€😀'.repeat(200) } }) + '\n';
    const bytes = Buffer.from(text, 'utf8');
    // 100 chunks, most of them cutting a character in two.
    const step = Math.ceil(bytes.length / 100);
    for (let at = 0; at < bytes.length; at += step) reader.push(new Uint8Array(bytes.subarray(at, at + step)));
    reader.end();
    expect(lines).toEqual([text.slice(1, -1)]);
    expect(decode.mock.calls.length + toString.mock.calls.length).toBe(1);
  });
});
