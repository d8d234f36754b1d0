// When the stdio transport writes the answers of pipelined calls (src/runtime/transports/stdio/stdio-output.ts). A
// client with 32 calls in flight sends them as one input chunk. One write per chunk made the client
// wait for all 32 answers while the server waited for the next 32 calls (the two took turns); a
// write every 4 answers cost more server CPU per call than the bare floor server. The output stream
// here records every write as it happens, next to the handler runs, so the order is exact and no
// timing is involved.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ServerDefinition, Validator } from '../../src/runtime/api.js';
import { createServer } from '../../src/runtime/index.js';
import { FIRST_BATCH } from '../../src/runtime/transports/stdio/stdio-output.js';

const accept = (() => true) as unknown as Validator<unknown>;

const definition: ServerDefinition = {
  serverInfo: { name: 'batching', version: '1' },
  protocolVersions: ['2025-11-25'],
  capabilities: { tools: {} },
  tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }],
  toolBindings: { t: { name: 't', validateInput: accept, validateOutput: accept } },
  resources: [],
  resourceTemplates: [],
  prompts: [],
  requestValidators: {},
};

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
const call = (n: number): string => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 't', arguments: { n } } });
const ids = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);

/**
 * Serves one chunk of `count` pipelined calls (after `initialize`, in a chunk of its own) and
 * returns, in order, the handler runs (`call n`) and the writes (`write [ids]`).
 */
async function serveChunk(count: number, result: (n: number) => Record<string, unknown> = (n) => ({ n })): Promise<{ events: string[]; writes: number[][] }> {
  const events: string[] = [];
  const writes: number[][] = [];
  let initialized!: () => void;
  const initializeAnswered = new Promise<void>((resolve) => (initialized = resolve));
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const answered = chunk.toString().trim().split('\n').map((line) => (JSON.parse(line) as { id: number }).id);
      if (answered[0] === 0) initialized();
      else {
        writes.push(answered);
        events.push(`write [${answered.join(',')}]`);
      }
      callback();
    },
  });
  const handler = async (input: { n: number }) => {
    events.push(`call ${input.n}`);
    return { structuredContent: result(input.n) };
  };
  const input = new PassThrough();
  const done = createServer(definition, { tools: { t: handler as never } }, { logger: () => {} }).serveStdio({ input, output });
  input.write(initialize + '\n');
  await initializeAnswered;
  input.end(ids(count).map(call).join('\n') + '\n');
  await done;
  return { events, writes };
}

describe('stdio writes of pipelined calls', () => {
  it('sends a client with 32 calls in flight its first answers before the last call of the chunk runs', async () => {
    const { events, writes } = await serveChunk(32);
    const firstWrite = events.findIndex((event) => event.startsWith('write'));
    expect(firstWrite).toBeGreaterThan(-1);
    expect(firstWrite).toBeLessThan(events.indexOf('call 32'));
    // The first write holds the first answers, and the client gets every answer once, in order.
    expect(writes[0]?.[0]).toBe(1);
    expect(writes.flat()).toEqual(ids(32));
  });

  it('answers a chunk of 32 calls in three writes: 8, 16 and the last 8', async () => {
    const { writes } = await serveChunk(32);
    expect(writes.map((w) => w.length)).toEqual([FIRST_BATCH, 2 * FIRST_BATCH, 32 - 3 * FIRST_BATCH]);
    expect(writes.flat()).toEqual(ids(32));
  });

  it('doubles the batches over a long chunk and writes a short chunk at once', async () => {
    expect((await serveChunk(64)).writes.map((w) => w.length)).toEqual([FIRST_BATCH, 2 * FIRST_BATCH, 4 * FIRST_BATCH, 64 - 7 * FIRST_BATCH]);
    expect((await serveChunk(FIRST_BATCH - 1)).writes.map((w) => w.length)).toEqual([FIRST_BATCH - 1]);
  });

  it('pauses stdin while stdout is full and serves the rest once it drains', async () => {
    const answered: number[] = [];
    // Write callbacks are held until `drained` is set, so stdout stays full until then.
    const held: (() => void)[] = [];
    let drained = false;
    const output = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().trim().split('\n')) answered.push((JSON.parse(line) as { id: number }).id);
        if (drained) callback();
        else held.push(callback);
      },
    });
    const handler = async (input: { n: number }) => ({ structuredContent: { n: input.n } });
    const input = new PassThrough();
    const done = createServer(definition, { tools: { t: handler as never } }, { logger: () => {} }).serveStdio({ input, output });
    input.write(initialize + '\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toEqual([0]);
    expect(input.isPaused()).toBe(true);
    input.end(ids(32).map(call).join('\n') + '\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toEqual([0]);
    drained = true;
    for (const callback of held.splice(0)) callback();
    await done;
    expect(answered).toEqual([0, ...ids(32)]);
  });

  it('writes answers of 16 K characters or more without waiting for a batch', async () => {
    const { writes } = await serveChunk(4, (n) => ({ n, text: 'x'.repeat(20_000) }));
    expect(writes).toEqual([[1], [2], [3], [4]]);
  });
});
