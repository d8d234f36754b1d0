/**
 * The client reads no message over `maxMessageBytes` (default 64 MiB), so a broken or hostile server
 * cannot make it hold memory without end: a stdio line with no end (the connection ends, the server
 * is stopped), an HTTP body or an SSE event (that response is closed, the call rejects with
 * MessageTooLargeError, the session stays usable and the stream is not resumed), the legacy
 * transport's one stream (the connection ends). Both HTTP wires; the two parsers alone too.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { StreamableHttpTransport } from '../../src/runtime/client/http.js';
import { ClientSession } from '../../src/runtime/client/session.js';
import { SseParser } from '../../src/runtime/client/sse-parser.js';
import { StdioLines } from '../../src/runtime/client/stdio-lines.js';
import { MessageTooLargeError, openSession } from '../../src/runtime/client/index.js';
import { loopbackServer, WIRES } from './loopback-server.js';

const { listen } = loopbackServer();

const LIMIT = 100_000;
/** A result of about 300 KB: three times the limit. */
const BIG = { text: 'x'.repeat(3 * LIMIT) };
const SMALL = { text: 'ok' };

const answer = (id: unknown, result: object) => JSON.stringify({ jsonrpc: '2.0', id, result });
const initialized = (id: unknown) => answer(id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } });

describe('the parsers alone', () => {
  it('StdioLines: a line over the limit, whole or in pieces, stops the reading once', () => {
    for (const pieces of [['12345678901\n'], ['123456', '78901', '\n{}\n']]) {
      const lines: string[] = [];
      let tooLarge = 0;
      const reader = new StdioLines((line) => lines.push(line), 10, () => tooLarge++);
      reader.push(Buffer.from('0123456789\n'));
      for (const piece of pieces) reader.push(Buffer.from(piece));
      reader.push(Buffer.from('{}\n'));
      reader.end();
      expect([lines, tooLarge]).toEqual([['0123456789'], 1]);
    }
  });

  it('SseParser: an event whose data lines add up past the limit, or a line with no end', () => {
    const events: string[] = [];
    const parser = new SseParser((event) => events.push(event.data), () => {}, 20);
    parser.push(Buffer.from('data: 0123456789\ndata: 012345678\n\n'));
    expect([events, parser.tooLarge]).toEqual([['0123456789\n012345678'], false]);
    parser.push(Buffer.from('data: 0123456789\ndata: 0123456789\n\n'));
    parser.push(Buffer.from('data: later\n\n'));
    expect([events.length, parser.tooLarge]).toEqual([1, true]);

    const endless = new SseParser(() => {}, () => {}, 20);
    for (let i = 0; i < 5; i++) endless.push(Buffer.from('data: 0123456'));
    expect(endless.tooLarge).toBe(true);
  });
});

describe.each(WIRES)('over HTTP, on %s', (_wire, exchange) => {
  /** A server whose `tools/call` named `big` answers BIG, as JSON or as one SSE event, and anything else SMALL. */
  async function bigServer(as: 'json' | 'sse'): Promise<{ url: string; gets: () => number }> {
    let gets = 0;
    const url = await listen((req, body, res) => {
      if (req.method !== 'POST') {
        if (req.method === 'GET') gets++;
        return void res.writeHead(405).end();
      }
      if (body.method === 'server/discover') return void res.writeHead(405).end();
      if (body.id === undefined) return void res.writeHead(202).end();
      const text = body.method === 'initialize' ? initialized(body.id) : answer(body.id, body.params?.name === 'big' ? BIG : SMALL);
      if (as === 'json' || body.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
        return void res.end(text);
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
      // An id and a retry: were the stream resumed after it, it would be with a GET.
      res.end(`retry: 10\nid: e1\ndata: ${text}\n\n`);
    });
    return { url, gets: () => gets };
  }

  for (const as of ['json', 'sse'] as const) {
    it(`an answer over the limit as ${as}: the call rejects, the next one is answered, nothing is resumed`, async () => {
      const { url, gets } = await bigServer(as);
      const session = new ClientSession(new StreamableHttpTransport({ url, exchange, standaloneStream: false, maxMessageBytes: LIMIT }));
      try {
        await session.connect();
        const failed = await session.request('tools/call', { name: 'big' }).catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(MessageTooLargeError);
        expect((failed as MessageTooLargeError).limit).toBe(LIMIT);
        expect(await session.request('tools/call', { name: 'small' })).toEqual(SMALL);
        expect(gets()).toBe(0);
      } finally {
        await session.close();
      }
    });
  }

  it('the same answer under a larger limit arrives whole', async () => {
    const { url } = await bigServer('sse');
    const session = new ClientSession(new StreamableHttpTransport({ url, exchange, standaloneStream: false, maxMessageBytes: 4 * LIMIT }));
    try {
      await session.connect();
      expect(await session.request('tools/call', { name: 'big' })).toEqual(BIG);
    } finally {
      await session.close();
    }
  });

  it('legacy HTTP+SSE: an event over the limit ends the connection, and the call rejects', async () => {
    let stream: ServerResponse | undefined;
    const url = await listen((req, body, res) => {
      if (req.method === 'GET') {
        stream = res;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.write('event: endpoint\ndata: /messages?s=1\n\n');
      }
      if (req.method !== 'POST' || !req.url?.startsWith('/messages')) return void res.writeHead(405).end();
      res.writeHead(202).end();
      if (body.id === undefined) return;
      const text = body.method === 'initialize' ? initialized(body.id) : answer(body.id, BIG);
      stream!.write(`event: message\ndata: ${text}\n\n`);
    });
    const session = new ClientSession(new StreamableHttpTransport({ url, exchange, standaloneStream: false, maxMessageBytes: LIMIT }));
    try {
      await session.connect();
      await expect(session.request('tools/list')).rejects.toBeInstanceOf(MessageTooLargeError);
    } finally {
      await session.close();
    }
  });
});

describe('over stdio', () => {
  /** Answers initialize, a 300 KB line without its end for tools/list, an error for anything else (server/discover), and stays alive. */
  const SERVER = `
    const readline = require('node:readline');
    readline.createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line);
      if (m.id === undefined) return;
      if (m.method === 'initialize') {
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'big', version: '1' } } }) + '\\n');
      } else if (m.method === 'tools/list') {
        process.stdout.write('{"jsonrpc":"2.0","id":' + m.id + ',"result":{"text":"' + 'x'.repeat(300000));
      } else process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } }) + '\\n');
    });
    setInterval(() => {}, 1000);`;

  it('a line over the limit ends the connection with MessageTooLargeError and stops the server', async () => {
    const session = await openSession({ command: process.execPath, args: ['-e', SERVER], maxMessageBytes: LIMIT, shutdownGraceMs: 200, stderr: 'ignore' });
    const pid = (session as unknown as { connection: { transport: { pid: number } } }).connection.transport.pid;
    const failed = await session.request('tools/list').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(MessageTooLargeError);
    await expect(session.request('ping')).rejects.toThrow();
    // Stopped: stdin closed, then SIGTERM after the grace.
    for (let waited = 0; waited < 5000 && alive(pid); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(pid)).toBe(false);
    await session.close();
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
