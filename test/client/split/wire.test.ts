/**
 * The SSE parser on the real wires, both client transports, against a loopback server that writes
 * its SSE one byte per write with CRLF line ends (as sse-starlette does, in the smallest chunks):
 * Streamable HTTP answers whose JSON spans two `data:` lines, each ended by a CR and LF written
 * apart (the parser before issue 38 took them for an end of event), and the legacy HTTP+SSE
 * transport, whose `endpoint` event and messages arrive the same way. On node:http and on fetch.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { StreamableHttpTransport } from '../../../src/runtime/client/http.js';
import { ClientSession } from '../../../src/runtime/client/session.js';
import { loopbackServer, WIRES } from '../loopback-server.js';

const { listen } = loopbackServer();

/** Writes `text` one byte per write, each after a turn of the event loop, so the reader gets them apart. */
async function trickle(res: ServerResponse, text: string): Promise<void> {
  for (const byte of Buffer.from(text)) {
    res.write(Buffer.of(byte));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const answer = (id: unknown, result: object) => JSON.stringify({ jsonrpc: '2.0', id, result });
const initialized = (id: unknown) => answer(id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'trickle-é', version: '1' } });
const TOOLS = { tools: [{ name: 'écho', inputSchema: { type: 'object' } }] };

describe.each(WIRES)('SSE one byte at a time, CRLF, on %s', (_wire, exchange) => {
  it('Streamable HTTP: an answer over two data lines, each CRLF written apart', async () => {
    const url = await listen(async (req, body, res) => {
      if (req.method !== 'POST' || body.method === 'server/discover') return void res.writeHead(405).end();
      if (body.id === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
      const result = body.method === 'initialize' ? initialized(body.id) : answer(body.id, TOOLS);
      // The answer's JSON spans two data lines (joined with LF, which JSON reads as whitespace).
      await trickle(res, `\uFEFF: hello\r\nretry: 50\r\nid: 5\r\nevent: message\r\ndata: ${result.slice(0, 10)}\r\ndata: ${result.slice(10)}\r\n\r\n`);
      res.end();
    });
    const session = new ClientSession(new StreamableHttpTransport({ url, exchange, standaloneStream: false }));
    try {
      expect((await session.connect()).serverInfo).toEqual({ name: 'trickle-é', version: '1' });
      expect(await session.request('tools/list')).toEqual(TOOLS);
    } finally {
      await session.close();
    }
  });

  it('legacy HTTP+SSE: the endpoint event and the messages', async () => {
    let stream: ServerResponse | undefined;
    let writing = Promise.resolve();
    const send = (text: string) => (writing = writing.then(() => trickle(stream!, text)));
    const url = await listen(async (req, body, res) => {
      if (req.method === 'GET') {
        stream = res;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        await send('event: endpoint\r\ndata: /messages?s=é\r\n\r\n');
        return;
      }
      if (!req.url?.startsWith('/messages')) return void res.writeHead(405).end();
      res.writeHead(202).end();
      if (body.id === undefined) return;
      const result = body.method === 'initialize' ? initialized(body.id) : answer(body.id, TOOLS);
      await send(`event: message\r\ndata: ${result}\r\n\r\n`);
    });
    const session = new ClientSession(new StreamableHttpTransport({ url, exchange, standaloneStream: false }));
    try {
      expect((await session.connect()).protocolVersion).toBe('2025-11-25');
      expect(await session.request('tools/list')).toEqual(TOOLS);
    } finally {
      await session.close();
    }
  });
});
