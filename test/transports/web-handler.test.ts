/**
 * The Web-standard handler (`server.fetchHandler()`) called directly with Node's own `Request`, as a
 * platform calls it: both eras on one endpoint, a session's SSE stream, CORS, the shared refusals,
 * and the clear answer to a stateful request where sessions are off.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/runtime/index.js';
import { REVISION, meta, standardHeaders, statelessDefinition, statelessHandlers } from '../runtime/stateless-support.js';

const ORIGIN = 'http://localhost';
const URL_ = `${ORIGIN}/mcp`;
const JSON_ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function handler(options: Parameters<ReturnType<typeof createServer>['fetchHandler']>[0] = {}) {
  return createServer(statelessDefinition(), statelessHandlers, { logger: () => {} }).fetchHandler(options);
}

function post(headers: Record<string, string>, body: unknown, url = URL_): Request {
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'w', version: '1' } } };

/** The JSON-RPC messages of an SSE body. */
function sseMessages(text: string): any[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: ')
    .map((line) => JSON.parse(line.slice(6)));
}

describe('fetchHandler', () => {
  it('serves a 2026-07-28 tools/call statelessly, with the result fields and the server identity', async () => {
    const fetch = handler();
    const params = { name: 'region', arguments: { region: 'eu' }, _meta: meta() };
    const response = await fetch(post({ ...standardHeaders('tools/call', params), 'mcp-param-region': 'eu' }, { jsonrpc: '2.0', id: 7, method: 'tools/call', params }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as any;
    expect(body.id).toBe(7);
    expect(body.result.content).toEqual([{ type: 'text', text: 'region eu' }]);
    expect(body.result.resultType).toBe('complete');
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  it('opens a 2025-11-25 session, calls a tool in it, streams progress over SSE, and ends it with DELETE', async () => {
    const fetch = handler();
    const opened = await fetch(post(JSON_ACCEPT, initialize));
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id');
    expect(session).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(((await opened.json()) as any).result.protocolVersion).toBe('2025-11-25');
    const inSession = { ...JSON_ACCEPT, 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' };
    expect((await fetch(post(inSession, { jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
    const call = await fetch(post(inSession, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Oslo' } } }));
    expect(call.status).toBe(200);
    expect(((await call.json()) as any).result.structuredContent.conditions).toBeTypeOf('string');
    // `poll` sends progress before its result: the answer becomes a resumable SSE stream.
    const polled = await fetch(post(inSession, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'poll', arguments: {}, _meta: { progressToken: 'p' } } }));
    expect(polled.headers.get('content-type')).toBe('text/event-stream');
    expect(polled.headers.get('connection')).toBeNull();
    const text = await polled.text();
    expect(text).toMatch(/^id: [^\n]+\ndata: \n\n/);
    expect(text).toContain('retry: 100');
    // The stream was closed early for polling; its rest is resumed with a GET and Last-Event-ID.
    const lastId = [...text.matchAll(/^id: (.+)$/gm)].at(-1)![1]!;
    const resumed = await fetch(new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session!, 'last-event-id': lastId } }));
    expect(resumed.status).toBe(200);
    const rest = sseMessages(await resumed.text());
    expect(rest.at(-1)).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'polled' }] } });
    const deleted = await fetch(new Request(URL_, { method: 'DELETE', headers: { 'mcp-session-id': session! } }));
    expect(deleted.status).toBe(204);
    const gone = await fetch(post(inSession, { jsonrpc: '2.0', id: 3, method: 'ping' }));
    expect(gone.status).toBe(404);
  });

  it('answers an allowed origin’s preflight and exposes the MCP headers; refuses other origins and hosts', async () => {
    const fetch = handler({ allowedOrigins: ['https://app.example'], allowedHosts: ['mcp.example.com'] });
    const at = 'https://mcp.example.com/mcp';
    const preflight = await fetch(new Request(at, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-param-region' } }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-param-region');
    const opened = await fetch(post({ ...JSON_ACCEPT, origin: 'https://app.example' }, initialize, at));
    expect(opened.status).toBe(200);
    expect(opened.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version');
    const evil = await fetch(post({ ...JSON_ACCEPT, origin: 'https://evil.example' }, initialize, at));
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    // The default Host check allows the loopback names only: a deployment lists its own.
    const unlisted = await handler()(post(JSON_ACCEPT, initialize, 'https://mcp.example.com/mcp'));
    expect(unlisted.status).toBe(403);
    expect(((await unlisted.json()) as any).error.message).toContain('mcp.example.com');
  });

  it('refuses what the Node transport refuses: media type, Accept, body size, unknown paths and verbs', async () => {
    const fetch = handler({ maxBodyBytes: 1024 });
    expect((await fetch(post({ ...JSON_ACCEPT, 'content-type': 'text/plain' }, initialize))).status).toBe(415);
    expect((await fetch(post({ ...JSON_ACCEPT, accept: 'application/json' }, initialize))).status).toBe(406);
    const big = await fetch(post(JSON_ACCEPT, { jsonrpc: '2.0', id: 'big', method: 'ping', params: { pad: 'x'.repeat(4000) } }));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ jsonrpc: '2.0', id: 'big', error: { code: -32600, message: 'Payload Too Large: the limit is 1024 bytes' } });
    expect((await fetch(post(JSON_ACCEPT, initialize, `${ORIGIN}/other`))).status).toBe(404);
    const put = await fetch(new Request(URL_, { method: 'PUT' }));
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('with sessions off, answers a stateful request with a 400 that says why, and still serves 2026-07-28', async () => {
    const fetch = handler({ sessions: false });
    const refused = await fetch(post(JSON_ACCEPT, initialize));
    expect(refused.status).toBe(400);
    const error = ((await refused.json()) as any);
    expect(error.id).toBe(0);
    expect(error.error.message).toContain(`serves ${REVISION} only`);
    const get = await fetch(new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' } }));
    expect(get.status).toBe(405);
    const params = { name: 'region', arguments: { region: 'eu' }, _meta: meta() };
    const ok = await fetch(post({ ...standardHeaders('tools/call', params), 'mcp-param-region': 'eu' }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params }));
    expect(ok.status).toBe(200);
  });
});
