/**
 * stdio line framing, both sides, for every chunking of the same bytes: the client's reader of the
 * server's stdout (src/runtime/client/stdio-lines.ts) and the server's reader of stdin
 * (src/runtime/transports/stdio/stdio.ts, driven through `serveStdio` with a stream that delivers
 * exactly the chunks given). The lines: requests with awkward ids, JSON-RPC batches, a message over
 * the size limit, text that is not JSON, blank lines; LF or CRLF line ends; maybe a BOM.
 */
import { Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ServerDefinition } from '../../../src/runtime/api.js';
import { StdioLines } from '../../../src/runtime/client/stdio-lines.js';
import { createServer } from '../../../src/runtime/index.js';
import { awkwardText, BOM, bytewise, cut, cutPositions, utf8 } from './chunks.js';

/** A message over this many bytes is refused by the server (the padding makes one such). */
const MAX_MESSAGE_BYTES = 400;

type Item = { kind: 'ping'; id: string | number } | { kind: 'batch'; ids: (string | number)[] } | { kind: 'big'; id: string | number; pad: string } | { kind: 'text'; text: string } | { kind: 'blank' };

const id = fc.oneof(fc.integer({ min: -1000, max: 1e9 }), awkwardText(8));

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 5, arbitrary: id.map((i) => ({ kind: 'ping', id: i }) as Item) },
  { weight: 1, arbitrary: fc.array(id, { minLength: 1, maxLength: 3 }).map((ids) => ({ kind: 'batch', ids }) as Item) },
  { weight: 1, arbitrary: fc.tuple(id, fc.constantFrom('x', 'é', '😀')).map(([i, c]) => ({ kind: 'big', id: i, pad: c.repeat(MAX_MESSAGE_BYTES) }) as Item) },
  { weight: 1, arbitrary: awkwardText(10).map((text) => ({ kind: 'text', text }) as Item) },
  { weight: 1, arbitrary: fc.constant({ kind: 'blank' } as Item) },
);

export const stdioStream = fc.record({
  items: fc.array(fc.tuple(item, fc.constantFrom('\n', '\r\n')), { maxLength: 12 }),
  bom: fc.boolean(),
  /** Whether the last line has its line end (a last line without one still counts at the end). */
  finalEnd: fc.boolean(),
});
export type StdioStream = typeof stdioStream extends fc.Arbitrary<infer T> ? T : never;

const ping = (i: string | number) => ({ jsonrpc: '2.0', id: i, method: 'ping' });

function lineOf(it: Item): string {
  if (it.kind === 'ping') return JSON.stringify(ping(it.id));
  if (it.kind === 'batch') return JSON.stringify(it.ids.map(ping));
  if (it.kind === 'big') return JSON.stringify({ ...ping(it.id), params: { _meta: { pad: it.pad } } });
  if (it.kind === 'text') return it.text;
  return '';
}

export function stdioText(stream: StdioStream, first = ''): string {
  let text = (stream.bom ? BOM : '') + first;
  stream.items.forEach(([it, end], i) => {
    text += lineOf(it) + (i === stream.items.length - 1 && !stream.finalEnd ? '' : end);
  });
  return text;
}

/** What the client transport makes of each line (stdio.ts): JSON messages, anything else skipped. */
function clientReads(chunks: readonly Uint8Array[]): unknown[] {
  const messages: unknown[] = [];
  const lines = new StdioLines((text) => {
    try {
      messages.push(JSON.parse(text));
    } catch {
      // skipped, as the transport skips it
    }
  });
  for (const chunk of chunks) lines.push(chunk);
  lines.end();
  return messages;
}

/**
 * The client: the messages of the lines, worked out from the items. The reader drops one BOM at the
 * start of the stream: the flag's, or else one the first line's own text begins with.
 */
function clientModel(stream: StdioStream): unknown[] {
  const lines = stream.items.map(([it]) => lineOf(it));
  if (!stream.bom && lines[0]?.startsWith(BOM)) lines[0] = lines[0].slice(BOM.length);
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
}

export function stdioClientSplitInvariance(numRuns: number, seed?: number): void {
  fc.assert(
    fc.property(stdioStream, cutPositions, (stream, positions) => {
      const bytes = utf8(stdioText(stream));
      const expected = clientModel(stream);
      expect(clientReads([bytes])).toEqual(expected);
      expect(clientReads(bytewise(bytes))).toEqual(expected);
      expect(clientReads(cut(bytes, positions))).toEqual(expected);
    }),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
}

const definition: ServerDefinition = {
  serverInfo: { name: 'split', version: '1' },
  protocolVersions: ['2025-11-25'],
  capabilities: {},
  tools: [],
  toolBindings: {},
  resources: [],
  resourceTemplates: [],
  prompts: [],
  requestValidators: {},
};

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 's', version: '1' } } });

/** The server's answers, in order, to stdin delivered exactly as `chunks`. */
async function serverAnswers(chunks: readonly Uint8Array[]): Promise<unknown[]> {
  let out = '';
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      out += chunk.toString('utf8');
      callback();
    },
  });
  const input = Readable.from(chunks, { objectMode: false });
  await createServer(definition, { tools: {} }, { logger: () => {}, limits: { maxMessageBytes: MAX_MESSAGE_BYTES } }).serveStdio({ input, output });
  return out === '' ? [] : out.replace(/\n$/, '').split('\n').map((line) => JSON.parse(line) as unknown);
}

/** The server: the answers to the whole input in one chunk, to 1-byte chunks, and to random cuts are the same. */
export async function stdioServerSplitInvariance(numRuns: number, seed?: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(stdioStream, cutPositions, async (stream, positions) => {
      // initialize first, in the same bytes, so the pings are answered in a session (a BOM before
      // it is dropped: the stream's first line may start with one).
      const bytes = utf8(stdioText(stream, INITIALIZE + '\n'));
      const whole = await serverAnswers([bytes]);
      // Every ping line is answered by id, whatever else the lines hold.
      const answered = JSON.stringify(whole);
      for (const [it] of stream.items) if (it.kind === 'ping') expect(answered).toContain(JSON.stringify({ jsonrpc: '2.0', id: it.id, result: {} }));
      expect(await serverAnswers(bytewise(bytes))).toEqual(whole);
      expect(await serverAnswers(cut(bytes, positions))).toEqual(whole);
    }),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
}
