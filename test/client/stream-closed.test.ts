/**
 * A server that dies while it answers: the client rejects the call at once with
 * ConnectionClosedError, whether or not the call has a timeout. Raw node:http servers on 127.0.0.1
 * break the response off (the socket destroyed, as a killed process leaves it) after an SSE priming
 * event, after a progress notification, in the middle of a JSON body, and at 2026-07-28; both wires
 * (node:http and fetch) are held to it. A stream the server ends cleanly is still resumed
 * (test/client/http.test.ts); one that cannot be resumed rejects too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientSession, ConnectionClosedError } from '../../src/runtime/client/index.js';
import { StreamableHttpTransport } from '../../src/runtime/client/http.js';
import { nodeExchange } from '../../src/runtime/client/node-wire.js';
import { fetchExchange } from '../../src/runtime/client/fetch-wire.js';
import type { Exchange } from '../../src/runtime/client/http-wire.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

type Handler = (body: any, res: ServerResponse, req: IncomingMessage) => void;

/** A server speaking just enough of both eras; `call` answers every tools/call. */
async function listen(call: Handler): Promise<string> {
  server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      if (req.method === 'DELETE') return void res.writeHead(204).end();
      if (req.method === 'GET') return void res.writeHead(405).end();
      const body = JSON.parse(text);
      const reply = (value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(200, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: value }));
      };
      if (body.method === 'server/discover') {
        if (req.headers['mcp-protocol-version'] !== '2026-07-28') return void res.writeHead(400).end();
        return reply({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'dies', version: '1' } });
      }
      if (body.method === 'initialize')
        return reply({ protocolVersion: body.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'dies', version: '1' } }, { 'mcp-session-id': 's1' });
      if (body.id === undefined) return void res.writeHead(202).end();
      call(body, res, req);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`;
}

/** What a SIGKILLed process leaves: the socket closed mid-response, no last chunk. */
const die = (res: ServerResponse) => setTimeout(() => res.socket?.destroy(), 30);

async function connect(url: string, exchange: Exchange, era: string): Promise<ClientSession> {
  const session = new ClientSession(new StreamableHttpTransport({ url, exchange, standaloneStream: false }), { protocolVersions: [era] });
  await session.connect();
  return session;
}

/** Runs the call and says how it settled and how long it took. */
async function settle(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await promise;
    return { error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
}

const WIRES: { wire: string; exchange: Exchange }[] = [
  { wire: 'node:http', exchange: nodeExchange },
  { wire: 'fetch', exchange: fetchExchange },
];

describe.each(WIRES)('on $wire', ({ exchange }) => {
  it.each(['2025-11-25', '2026-07-28'])('%s: a stream broken after its priming event rejects the call at once, without a timeout', async (era) => {
    const url = await listen((body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // An id and a retry: the stream could be resumed, had the server ended it; it breaks instead.
      res.write(era === '2026-07-28' ? ': opened\n\n' : 'id: e1\nretry: 50\ndata: \n\n');
      die(res);
    });
    const session = await connect(url, exchange, era);
    const { error, ms } = await settle(session.request('tools/call', { name: 'slow', arguments: {} }));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toMatch(/closed before the answer/);
    expect(ms).toBeLessThan(1000);
    await session.close();
  });

  it('a stream broken after a progress notification rejects a call that has a long timeout, well before it', async () => {
    const url = await listen((body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: body.params._meta.progressToken, progress: 1 } };
      res.write(`id: e1\ndata: ${JSON.stringify(progress)}\n\n`);
      die(res);
    });
    const session = await connect(url, exchange, '2025-11-25');
    const seen: unknown[] = [];
    const { error, ms } = await settle(session.request('tools/call', { name: 'slow', arguments: {} }, { timeoutMs: 60_000, onProgress: (p) => seen.push(p) }));
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(ms).toBeLessThan(1000);
    await session.close();
  });

  it('a JSON answer cut off in the middle rejects the call at once', async () => {
    const url = await listen((body, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write(`{"jsonrpc":"2.0","id":${body.id},"result":{"content":[`);
      die(res);
    });
    const session = await connect(url, exchange, '2025-11-25');
    const { error, ms } = await settle(session.request('tools/call', { name: 'slow', arguments: {} }));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(ms).toBeLessThan(1000);
    await session.close();
  });

  it('a stream the server ends cleanly but whose resumption is refused rejects the call', async () => {
    const url = await listen((body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: e1\nretry: 20\ndata: \n\n');
      setTimeout(() => res.end(), 20);
    });
    const session = await connect(url, exchange, '2025-11-25');
    // The GET that resumes is answered 405 by this server.
    const { error, ms } = await settle(session.request('tools/call', { name: 'slow', arguments: {} }));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toMatch(/HTTP 405/);
    expect(ms).toBeLessThan(1000);
    await session.close();
  });

  it('a call still answered on a healthy stream resolves, and cancelling one does not report it lost', async () => {
    const url = await listen((body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: e1\ndata: \n\n');
      if (body.params.name === 'fine')
        setTimeout(() => res.end(`id: e2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [] } })}\n\n`), 20);
    });
    const session = await connect(url, exchange, '2025-11-25');
    expect(await session.request('tools/call', { name: 'fine', arguments: {} })).toEqual({ content: [] });
    const controller = new AbortController();
    const pending = settle(session.request('tools/call', { name: 'hangs', arguments: {} }, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('stopped by the app')), 50);
    const { error } = await pending;
    expect((error as Error).message).toBe('stopped by the app');
    await session.close();
  });
});

describe('connections that break before any answer (node:http wire)', () => {
  it('a request meeting the keep-alive race (the server drops the reused idle connection) is sent once more, on a new one', async () => {
    const requestsOn = new WeakMap<object, number>();
    let dropped = 0;
    const url = await listen((body, res, req) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      // What a server closing an idle keep-alive connection looks like to the request sent on it.
      if (body.params?.name === 'raced' && count > 1 && dropped === 0) {
        dropped++;
        return void req.socket.destroy();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: body.params?.name }] } }));
    });
    const session = await connect(url, nodeExchange, '2025-11-25');
    expect(await session.request('tools/call', { name: 'first', arguments: {} })).toMatchObject({ content: [{ text: 'first' }] });
    expect(await session.request('tools/call', { name: 'raced', arguments: {} })).toMatchObject({ content: [{ text: 'raced' }] });
    expect(dropped).toBe(1);
    await session.close();
  });

  it('discover on a connection that breaks rejects with the network error, not "the server does not speak 2026-07-28"', async () => {
    server = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`;
    const session = new ClientSession(new StreamableHttpTransport({ url, exchange: nodeExchange, standaloneStream: false }), { protocolVersions: ['2026-07-28'] });
    const { error } = await settle(session.connect());
    expect((error as Error).message).not.toMatch(/does not speak/);
    expect((error as NodeJS.ErrnoException).code).toBe('ECONNRESET');
  });
});
