/**
 * A client that stops reading an SSE stream (`maxUnsentBytes`, http-reply.ts `writeLive`): once
 * more than the limit waits unsent, the server cuts the connection instead of buffering on. A
 * session's stream loses nothing (the client resumes it with Last-Event-ID and gets every event and
 * the result); a stateless call is cancelled; a legacy HTTP+SSE session ends. The server goes on
 * serving. The clients here are raw sockets, so that "not reading" is real: the kernel's buffers
 * fill, then the server's. transports/web-http-slow-reader.test.ts runs it against the Web handler.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createServer, type HttpListener, type ServerHandlers, type Validator } from '../../src/runtime/index.js';
import { call, meta, standardHeaders, statelessDefinition, statelessHandlers } from './stateless-support.js';
import { listen } from '../transports/adapters.js';

/** Small, so that the kernel's socket buffers (a few MiB on loopback) are what fills first. */
const MAX_UNSENT = 256 * 1024;
const CHUNK = 'x'.repeat(32 * 1024);
/** Progress notifications of `flood`: 32 MiB, far past the kernel's buffers and the limit. */
const FLOOD_STEPS = 1000;

/** What the `flood` handler saw, by the `tag` argument of the call. */
const floods = new Map<string, { sent: number; aborted: boolean; done: boolean }>();

const floodInput = { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] };
const handlers: ServerHandlers = {
  ...statelessHandlers,
  tools: {
    ...statelessHandlers.tools,
    flood: async (input: { tag: string }, context) => {
      const state = { sent: 0, aborted: false, done: false };
      floods.set(input.tag, state);
      context.signal.addEventListener('abort', () => (state.aborted = true));
      for (let step = 1; step <= FLOOD_STEPS && !context.signal.aborted; step++) {
        await context.progress(step, FLOOD_STEPS, CHUNK);
        state.sent = step;
        // A timer turn now and then: the event loop gets to write, as a real producer lets it.
        if (step % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      state.done = true;
      return { content: [{ type: 'text', text: `flooded ${input.tag}` }] };
    },
  },
};

function definition() {
  const base = statelessDefinition();
  return {
    ...base,
    tools: [...base.tools, { name: 'flood', description: 'Sends 32 MiB of progress', inputSchema: floodInput }],
    toolBindings: {
      ...base.toolBindings,
      flood: { name: 'flood', validateInput: new Ajv2020().compile(floodInput) as Validator<unknown> },
    },
  };
}

let listener: HttpListener;
let url: URL;

beforeAll(async () => {
  listener = await listen(createServer(definition(), handlers, { logger: () => {} }), { maxUnsentBytes: MAX_UNSENT });
  url = new URL(listener.url);
});
afterAll(() => listener.close());

/** A raw HTTP/1.1 request on its own socket; what arrives is kept as text, read only while not paused. */
function rawRequest(method: string, path: string, headers: Record<string, string>, body = '') {
  const socket: Socket = connect(Number(url.port), url.hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${url.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== '') lines.push(`content-length: ${Buffer.byteLength(body)}`);
  socket.write(lines.join('\r\n') + '\r\n\r\n' + body);
  return {
    socket,
    closed,
    text: () => text,
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      for (let waited = 0; waited < 10_000; waited += 10) {
        const match = pattern.exec(text);
        if (match !== null) return match;
        await sleep(10);
      }
      throw new Error(`no ${pattern} in ${JSON.stringify(text.slice(0, 600))}`);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(test: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 20) {
    if (test()) return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function callFlood(tag: string, id: number) {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'flood', arguments: { tag }, _meta: { progressToken: tag } } });
}

describe('a client that stops reading', () => {
  it('a session stream: cut, then resumed with Last-Event-ID, with every event and the result', async () => {
    const init = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await (await fetch(listener.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();

    const slow = rawRequest('POST', url.pathname, headers, callFlood('session', 1));
    // The priming event's id, then the client stops reading.
    const primed = await slow.waitFor(/^id: (\S+)\n/m);
    slow.socket.pause();
    await until(() => floods.get('session')?.done === true, 'the handler to finish');
    slow.socket.resume();
    await slow.closed;
    // The connection was cut: the stream never got its last chunk, nor the result.
    expect(slow.text()).not.toContain('flooded session');
    expect(slow.text().endsWith('0\r\n\r\n')).toBe(false);

    const resumed = await fetch(listener.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': primed[1]! } });
    expect(resumed.status).toBe(200);
    const events = (await resumed.text()).split('\n\n').filter((block) => block.includes('data: '));
    const messages = events.map((block) => JSON.parse(/^data: (.*)$/m.exec(block)![1]!));
    expect(messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).toEqual(
      Array.from({ length: FLOOD_STEPS }, (_, i) => i + 1),
    );
    expect(messages.at(-1)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'flooded session' }] } });
  });

  it('a stateless call: cut and cancelled; the server goes on serving', async () => {
    const params = { name: 'flood', arguments: { tag: 'stateless' }, _meta: { ...meta(), progressToken: 'stateless' } };
    const slow = rawRequest('POST', url.pathname, standardHeaders('tools/call', params), JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }));
    await slow.waitFor(/notifications\/progress/);
    slow.socket.pause();
    await until(() => floods.get('stateless')?.aborted === true, 'the handler to be cancelled');
    const state = floods.get('stateless')!;
    expect(state.done && state.sent === FLOOD_STEPS).toBe(false);
    slow.socket.resume();
    await slow.closed;
    expect(slow.text()).not.toContain('flooded stateless');
    const echo = await call(listener.url, 'tools/call', { name: 'echo', arguments: { text: 'still here' }, _meta: meta() });
    expect(echo.body.result.content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it('a legacy HTTP+SSE stream: cut, and its session ends', async () => {
    const sse = rawRequest('GET', url.pathname.replace(/mcp$/, 'sse'), { accept: 'text/event-stream' });
    const endpoint = await sse.waitFor(/^data: (\/\S*messages\?sessionId=\S+)\n/m);
    const post = (body: unknown) =>
      fetch(new URL(endpoint[1]!, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'slow', version: '1' } } })).status).toBe(202);
    await sse.waitFor(/"id":0,"result"/);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    sse.socket.pause();
    expect((await post(JSON.parse(callFlood('legacy', 1)))).status).toBe(202);
    await until(() => floods.get('legacy')?.aborted === true, 'the handler to be cancelled');
    sse.socket.resume();
    await sse.closed;
    expect(sse.text()).not.toContain('flooded legacy');
    // The session went with its stream.
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(404);
  });
});
