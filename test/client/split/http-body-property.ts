/**
 * The server's reading of a POST body (src/runtime/transports/http/http-body.ts, through the Web
 * handler, whose `Request` body here is a stream delivering exactly the chunks given) for every
 * chunking of the same bytes: 2026-07-28 requests with awkward ids and `_meta` text, JSON-RPC
 * batches, a body over the size limit, text that is not JSON, maybe a BOM. The status and the
 * answer are the same for the whole body, 1-byte chunks and random cuts.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { createServer } from '../../../src/runtime/index.js';
import { meta, standardHeaders, statelessDefinition, statelessHandlers } from '../../runtime/stateless-support.js';
import { awkwardText, BOM, bytewise, cut, cutPositions, utf8 } from './chunks.js';

const MAX_BODY_BYTES = 600;

const id = fc.oneof(fc.integer({ min: 0, max: 1e9 }), awkwardText(8));
const request = fc.record({ id, note: awkwardText(16), pad: fc.constantFrom(0, 0, 0, MAX_BODY_BYTES) }).map(({ id, note, pad }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/list',
  params: { _meta: { ...meta(), 'example.com/note': note + 'é'.repeat(pad) } },
}));

export const httpBody = fc.record({
  body: fc.oneof({ weight: 4, arbitrary: request.map((r) => ({ first: r, text: JSON.stringify(r) })) }, { weight: 1, arbitrary: fc.array(request, { minLength: 1, maxLength: 3 }).map((rs) => ({ first: rs[0]!, text: JSON.stringify(rs) })) }, { weight: 1, arbitrary: fc.tuple(request, awkwardText(12)).map(([r, t]) => ({ first: r, text: t })) }),
  bom: fc.boolean(),
});

const fetchHandler = createServer(statelessDefinition(), statelessHandlers, { logger: () => {} }).fetchHandler({ maxBodyBytes: MAX_BODY_BYTES });

/** Status and body text of the answer to a POST whose body arrives as `chunks`. */
async function answer(headers: Record<string, string>, chunks: readonly Uint8Array[]): Promise<[number, string]> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk.slice());
      controller.close();
    },
  });
  const response = await fetchHandler(new Request('http://localhost/mcp', { method: 'POST', headers, body, duplex: 'half' } as RequestInit));
  return [response.status, await response.text()];
}

export async function httpBodySplitInvariance(numRuns: number, seed?: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(httpBody, cutPositions, async ({ body, bom }, positions) => {
      const headers = standardHeaders(body.first.method, body.first.params);
      const bytes = utf8((bom ? BOM : '') + body.text);
      const whole = await answer(headers, [bytes]);
      // A single request within the limit is served: the property compares real answers.
      if (!bom && body.text === JSON.stringify(body.first) && bytes.length <= MAX_BODY_BYTES) expect(whole[0], whole[1]).toBe(200);
      expect(await answer(headers, bytewise(bytes))).toEqual(whole);
      expect(await answer(headers, cut(bytes, positions))).toEqual(whole);
    }),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
}
