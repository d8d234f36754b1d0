/**
 * Issue 6, "limits with clear errors": each limit of the runtime, set small through the options a
 * generated main.ts passes, shows its error or status, and the server keeps serving afterwards.
 * Against the generated hardening server, as a real process, over stdio and Streamable HTTP.
 */
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, DEFAULT_LIMITS } from '../../src/runtime/index.js';
import { repoRoot } from '../server/support.js';
import { buildHardeningServer, HttpSession, StdioProcess, startHttpProcess, type BuiltServer, type Message, type ServerOptionsForTest } from './hardening-server.js';

let built: BuiltServer;
const cleanup: (() => void)[] = [];

beforeAll(async () => {
  built = await buildHardeningServer();
}, 120_000);

afterAll(() => {
  for (const clean of cleanup) clean();
  built?.remove();
});

function stdioServer(options: ServerOptionsForTest): StdioProcess {
  const server = new StdioProcess(built.main, options);
  cleanup.push(() => server.kill());
  return server;
}

async function httpServer(options: ServerOptionsForTest): Promise<string> {
  const started = await startHttpProcess(built.main, options);
  cleanup.push(() => started.child.kill());
  return started.url;
}

const toolText = (m: Message | undefined): string => m?.['result']?.['content']?.[0]?.['text'] as string;
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : [nested(depth - 1)]);

describe('limits over stdio', () => {
  it('maxMessageBytes: a longer line (whole, in pieces, or multi-byte) gets -32600 under its id', async () => {
    const server = stdioServer({ server: { limits: { maxMessageBytes: 1000 } } });
    await server.initialize();
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(2000) } } });
    server.send(big);
    // The same in 50-byte writes, so the line builds up across reads.
    for (let i = 0; i < big.length; i += 50) server.child.stdin!.write(big.slice(i, i + 50));
    server.child.stdin!.write('\n');
    server.sendJson({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: '€'.repeat(400) } } });
    expect(toolText(await server.callTool(3, 'echo', { text: 'fits' }))).toBe('fits');
    const refusals = server.messages.filter((m) => m['error'] !== undefined);
    expect(refusals.map((refusal) => refusal['id'])).toEqual([1, 1, 2]);
    for (const refusal of refusals) {
      expect(refusal['error']).toEqual({ code: -32600, message: 'Invalid Request: the message is larger than 1000 bytes' });
    }
  });

  it('maxDepth: deeper nesting gets -32600 under its id; brackets inside strings do not count', async () => {
    const server = stdioServer({ server: { limits: { maxDepth: 10 } } });
    await server.initialize();
    server.sendJson({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x', deep: nested(7) } } }); // 10 levels in all
    expect(toolText(await server.response(1))).toBe('x');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    server.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","deep":${deep}}}}`);
    const refusal = await server.waitFor((m) => m['id'] === 2);
    expect(refusal['error']).toEqual({ code: -32600, message: 'Invalid Request: the message nests deeper than 10 levels' });
    expect(toolText(await server.callTool(3, 'echo', { text: '[[[[[[[[[[[[[[[[\\"{{{{{{{{{{{{{' }))).toBe('[[[[[[[[[[[[[[[[\\"{{{{{{{{{{{{{');
  });

  it('maxInFlight: one request too many gets -32000 at once; ping still works; later requests run', async () => {
    const server = stdioServer({ server: { limits: { maxInFlight: 2 } } });
    await server.initialize();
    const first = server.callTool(1, 'wait', { ms: 300 });
    const second = server.callTool(2, 'wait', { ms: 300 });
    const third = await server.callTool(3, 'wait', { ms: 0 });
    expect(third['error']).toEqual({ code: -32000, message: 'Too many requests in flight: at most 2 at once; retry when one has finished' });
    expect((await server.call(4, 'ping'))['result']).toEqual({});
    expect(toolText(await first)).toBe('waited 300 ms');
    expect(toolText(await second)).toBe('waited 300 ms');
    expect(toolText(await server.callTool(5, 'wait', { ms: 0 }))).toBe('waited 0 ms');
  });

  it('refuses a request reusing the id of one in flight, and answers both', async () => {
    const server = stdioServer({});
    await server.initialize();
    server.sendJson({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: { ms: 200 } } });
    server.sendJson({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'dup' } } });
    const answers = await new Promise<Message[]>((resolve) => {
      const check = setInterval(() => {
        const seven = server.messages.filter((m) => m['id'] === 7);
        if (seven.length === 2) {
          clearInterval(check);
          resolve(seven);
        }
      }, 10);
    });
    expect(answers[0]!['error']).toEqual({ code: -32600, message: 'Invalid Request: id 7 is already used by a request in flight' });
    expect(toolText(answers[1])).toBe('waited 200 ms');
  });

  it('handlerTimeoutMs: a handler that never finishes is cancelled and answered with a tool error', async () => {
    const server = stdioServer({ server: { limits: { handlerTimeoutMs: 200 } } });
    await server.initialize();
    const started = performance.now();
    const stuck = await server.callTool(1, 'wait', { ms: 60_000, ignoreSignal: true });
    expect(stuck['result']).toEqual({ content: [{ type: 'text', text: 'Tool wait did not finish within 200 ms' }], isError: true });
    expect(performance.now() - started).toBeLessThan(5000);
    // A handler that honours its signal sees it abort.
    const cancelled = await server.callTool(2, 'wait', { ms: 60_000 });
    expect(toolText(cancelled)).toBe('Tool wait did not finish within 200 ms');
    expect(toolText(await server.callTool(3, 'echo', { text: 'next' }))).toBe('next');
    expect(server.stderr).toContain('Tool wait did not finish within 200 ms');
  });
});

describe('limits over HTTP', () => {
  it('maxMessageBytes is the default body limit: 413, then the next request is served', async () => {
    const url = await httpServer({ server: { limits: { maxMessageBytes: 1000 } } });
    const client = new HttpSession(url);
    await client.initialize();
    const big = await client.callTool(1, 'echo', { text: 'x'.repeat(2000) });
    expect(big.status).toBe(413);
    expect(big.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Payload Too Large: the limit is 1000 bytes' } });
    expect(toolText((await client.callTool(2, 'echo', { text: 'ok' })).json)).toBe('ok');
  });

  it('maxDepth: 400 with -32600', async () => {
    const url = await httpServer({ server: { limits: { maxDepth: 10 } } });
    const client = new HttpSession(url);
    await client.initialize();
    const deep = await client.callTool(1, 'echo', { text: 'x', deep: nested(50) });
    expect(deep.status).toBe(400);
    expect(deep.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid Request: the message nests deeper than 10 levels' } });
    expect(toolText((await client.callTool(2, 'echo', { text: 'ok' })).json)).toBe('ok');
  });

  it('maxInFlight counts per session', async () => {
    const url = await httpServer({ server: { limits: { maxInFlight: 1 } } });
    const a = new HttpSession(url);
    const b = new HttpSession(url);
    await a.initialize();
    await b.initialize();
    const slow = a.callTool(1, 'wait', { ms: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await a.callTool(2, 'wait', { ms: 0 })).json!['error']['code']).toBe(-32000);
    expect(toolText((await b.callTool(3, 'wait', { ms: 0 })).json)).toBe('waited 0 ms');
    expect(toolText((await slow).json)).toBe('waited 300 ms');
  });

  it('handlerTimeoutMs answers over HTTP too', async () => {
    const url = await httpServer({ server: { limits: { handlerTimeoutMs: 150 } } });
    const client = new HttpSession(url);
    await client.initialize();
    expect(toolText((await client.callTool(1, 'wait', { ms: 60_000, ignoreSignal: true })).json)).toBe('Tool wait did not finish within 150 ms');
  });

  it('maxSessions: one initialize too many gets 503 until a session ends', async () => {
    const url = await httpServer({ http: { maxSessions: 2 } });
    const a = new HttpSession(url);
    await a.initialize();
    await new HttpSession(url).initialize();
    await expect(new HttpSession(url).initialize()).rejects.toThrow('HTTP 503');
    const ended = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': a.session } });
    expect(ended.status).toBe(204);
    await new HttpSession(url).initialize();
  });

  it('maxHeaderBytes: 431 for oversized headers', async () => {
    const url = await httpServer({ http: { maxHeaderBytes: 2048 } });
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-padding': 'p'.repeat(4096) }, body: '{}' });
    expect(response.status).toBe(431);
    const client = new HttpSession(url);
    await client.initialize();
  });

  it('headersTimeoutMs and requestTimeoutMs: slow clients get 408 while others are served', async () => {
    const url = new URL(await httpServer({ http: { headersTimeoutMs: 300, requestTimeoutMs: 600 } }));
    const opened: Socket[] = [];
    const slow = (text: string): Promise<string> =>
      new Promise((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
        opened.push(socket);
        let received = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (received += chunk));
        socket.on('close', () => resolve(received));
      });
    const started = performance.now();
    const headersNeverEnd = slow(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: 1\r\n`);
    const bodyNeverEnds = slow(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`);
    const client = new HttpSession(url.href);
    await client.initialize();
    expect(toolText((await client.callTool(1, 'echo', { text: 'served' })).json)).toBe('served');
    expect(await headersNeverEnd).toMatch(/^HTTP\/1\.1 408/);
    expect(await bodyNeverEnds).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(5000);
    for (const socket of opened) socket.destroy();
  });

  it('keepAliveTimeoutMs: an idle keep-alive connection is closed', async () => {
    const url = new URL(await httpServer({ http: { keepAliveTimeoutMs: 200 } }));
    const closedAfter = await new Promise<number>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write(`DELETE ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`),
      );
      let answeredAt = 0;
      socket.on('data', () => (answeredAt ||= performance.now()));
      socket.on('close', () => resolve(performance.now() - answeredAt));
    });
    expect(closedAfter).toBeGreaterThan(100);
    expect(closedAfter).toBeLessThan(3000);
  });
});

describe('the generated main.ts spells out every default', () => {
  it('shows the values of DEFAULT_LIMITS and DEFAULT_HTTP_LIMITS', () => {
    const template = readFileSync(join(repoRoot, 'templates', 'main.ts.hbs'), 'utf8');
    const shown = (name: string): number => {
      const match = new RegExp(`\\b${name}: ([\\d_ *]+),`).exec(template);
      expect(match, name).not.toBeNull();
      return Function(`return ${match![1]!}`)() as number;
    };
    for (const [name, value] of Object.entries({ ...DEFAULT_LIMITS, ...DEFAULT_HTTP_LIMITS })) expect(shown(name), name).toBe(value);
  });
});
