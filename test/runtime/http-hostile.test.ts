/**
 * Hostile Streamable HTTP traffic: every refusal has its documented status and a JSON-RPC error
 * body, the tool never runs, and the server keeps serving. Then 10,000 generated requests
 * (fast-check): no 5xx for client errors, every JSON body is JSON-RPC, and the server still answers.
 */
import { request as httpRequest, Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener, type ServerHandlers } from '../../src/runtime/index.js';
import { meta, REVISION, standardHeaders, statelessDefinition, statelessHandlers } from './stateless-support.js';
import { listen } from '../transports/adapters.js';

let runs = 0;
const counting: ServerHandlers = {
  ...statelessHandlers,
  tools: {
    ...statelessHandlers.tools,
    region: (input: { region: string }) => {
      runs++;
      return { content: [{ type: 'text', text: `region ${input.region}` }] };
    },
  },
};

let listener: HttpListener;
let url: URL;
let session = '';
const serverLog: string[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

beforeAll(async () => {
  listener = await listen(createServer(statelessDefinition(), counting, { logger: (line) => serverLog.push(line) }), { maxBodyBytes: 64 * 1024 });
  url = new URL(listener.url);
  const init = await send('POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, JSON.stringify({
    jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
  }));
  session = init.headers['mcp-session-id'] as string;
});
afterAll(async () => {
  agent.destroy();
  await listener.close();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: header values may be arrays (sent as repeated header lines). */
function send(method: string, headers: Record<string, string | string[]>, body?: string | Buffer, path = url.pathname): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers, agent, timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${JSON.stringify(headers)} ${String(body).slice(0, 200)}`)));
    req.on('error', reject);
    req.end(body);
  });
}

const regionCall = (region: unknown = 'eu') => ({ name: 'region', arguments: { region }, _meta: meta() });
const statelessBody = (params = regionCall()) => JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params });

function errorOf(reply: Reply): { code: number; message: string } {
  expect(reply.headers['content-type']).toBe('application/json');
  const parsed = JSON.parse(reply.body) as { jsonrpc: string; error: { code: number; message: string } };
  expect(parsed.jsonrpc).toBe('2.0');
  return parsed.error;
}

describe('hostile HTTP', () => {
  it('refuses each bad request with its documented status and error, never running the tool', async () => {
    const good = standardHeaders('tools/call', regionCall());
    const { 'mcp-method': _dropped, ...noMethod } = good;
    const cases: { name: string; method?: string; headers: Record<string, string | string[]>; body?: string; status: number; code: number }[] = [
      { name: 'bad Origin', headers: { ...good, origin: 'http://evil.example.com', 'mcp-param-region': 'eu' }, status: 403, code: -32000 },
      { name: 'bad Host', headers: { ...good, host: 'evil.example.com', 'mcp-param-region': 'eu' }, status: 403, code: -32000 },
      { name: 'missing Mcp-Method', headers: { ...noMethod, 'mcp-param-region': 'eu' }, status: 400, code: -32020 },
      { name: 'mismatching Mcp-Name', headers: { ...good, 'mcp-name': 'echo', 'mcp-param-region': 'eu' }, status: 400, code: -32020 },
      { name: 'missing Mcp-Param', headers: { ...good }, status: 400, code: -32020 },
      { name: 'malformed base64 Mcp-Param', headers: { ...good, 'mcp-param-region': '=?base64?ZX!!?=' }, status: 400, code: -32020 },
      { name: 'base64 of invalid UTF-8', headers: { ...good, 'mcp-param-region': '=?base64?/w==?=' }, status: 400, code: -32020 },
      { name: 'duplicate Mcp-Method', headers: { ...good, 'mcp-method': ['tools/call', 'tools/call'], 'mcp-param-region': 'eu' }, status: 400, code: -32020 },
      { name: 'duplicate Mcp-Param', headers: { ...good, 'mcp-param-region': ['eu', 'eu'] }, status: 400, code: -32020 },
      { name: 'header/body version mismatch', headers: { ...good, 'mcp-protocol-version': '2025-11-25', 'mcp-param-region': 'eu' }, status: 400, code: -32020 },
      {
        name: 'unsupported version',
        headers: { ...good, 'mcp-protocol-version': '2099-01-01', 'mcp-param-region': 'eu' },
        body: statelessBody({ ...regionCall(), _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) }),
        status: 400,
        code: -32022,
      },
      { name: 'no _meta', headers: { ...good, 'mcp-param-region': 'eu' }, body: statelessBody({ name: 'region', arguments: { region: 'eu' } } as never), status: 400, code: -32602 },
      { name: 'wrong content type', headers: { ...good, 'content-type': 'text/plain', 'mcp-param-region': 'eu' }, status: 415, code: -32000 },
      { name: 'Accept without SSE', headers: { ...good, accept: 'application/json', 'mcp-param-region': 'eu' }, status: 406, code: -32000 },
      { name: 'oversized body', headers: { ...good, 'mcp-param-region': 'eu' }, body: statelessBody(regionCall('x'.repeat(70 * 1024))), status: 413, code: -32600 },
      { name: 'unknown session', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'region', arguments: { region: 'eu' } } }), status: 404, code: -32001 },
      { name: 'duplicate session ids', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': [session, session] }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'region', arguments: { region: 'eu' } } }), status: 404, code: -32001 },
      { name: 'unsupported stateful version', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2024-01-01' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'region', arguments: { region: 'eu' } } }), status: 400, code: -32000 },
      { name: 'GET without text/event-stream', method: 'GET', headers: { accept: 'application/json', 'mcp-session-id': session }, status: 406, code: -32000 },
      { name: 'PUT', method: 'PUT', headers: { 'mcp-session-id': session }, status: 405, code: -32000 },
    ];
    for (const c of cases) {
      const body = c.body ?? (c.method === undefined || c.method === 'POST' ? statelessBody() : undefined);
      const reply = await send(c.method ?? 'POST', c.headers, body);
      const error = errorOf(reply);
      expect([c.name, reply.status, error.code]).toEqual([c.name, c.status, c.code]);
    }
    expect(runs).toBe(0);
    const ok = await send('POST', { ...good, 'mcp-param-region': 'eu' }, statelessBody());
    expect(ok.status).toBe(200);
    expect(runs).toBe(1);
  });

  it('survives 10,000 generated requests: no 5xx, JSON bodies are JSON-RPC, and it keeps serving', async () => {
    const anyHeaderValue = fc.oneof(
      fc.constantFrom('', ' ', 'tools/call', 'tools/list', 'region', 'eu', REVISION, '2025-11-25', '=?base64?ZXU=?=', '=?base64?!!?=', '=?base64??=', 'x'.repeat(300)),
      fc.string({ maxLength: 40 }).filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
    );
    const headerSet = fc.record(
      {
        'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'APPLICATION/JSON', ''),
        accept: fc.constantFrom('application/json, text/event-stream', 'text/event-stream', 'application/json', '*/*', 'text/html', ''),
        'mcp-session-id': fc.constantFrom(session, 'unknown', ''),
        'mcp-protocol-version': fc.constantFrom(REVISION, '2025-11-25', '2025-03-26', 'v999', ''),
        'mcp-method': anyHeaderValue,
        'mcp-name': anyHeaderValue,
        'mcp-param-region': anyHeaderValue,
        'last-event-id': anyHeaderValue,
        origin: fc.constantFrom('http://localhost:1', 'http://evil.example.com', 'null'),
      },
      { requiredKeys: [] },
    );
    const method = fc.constantFrom('tools/call', 'tools/list', 'server/discover', 'initialize', 'ping', 'resources/read', 'prompts/get', 'subscriptions/listen', 'logging/setLevel', 'nope');
    const params = fc.oneof(
      fc.constant(undefined),
      fc.record({ name: fc.constantFrom('region', 'echo', 'get_weather', 'fail', 'zzz'), arguments: fc.oneof(fc.jsonValue(), fc.record({ region: fc.jsonValue(), text: fc.string() })) }, { requiredKeys: [] }),
      fc.jsonValue(),
    );
    const withMeta = fc.record({ params, meta: fc.option(fc.record({ caps: fc.jsonValue(), version: fc.constantFrom(REVISION, 'v9', 7) })) }).map(({ params: p, meta: m }) => {
      if (m === null || typeof p !== 'object' || p === null || Array.isArray(p)) return p;
      return { ...p, _meta: { 'io.modelcontextprotocol/protocolVersion': m.version, 'io.modelcontextprotocol/clientCapabilities': m.caps } };
    });
    const message = fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0'), id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), method, params: withMeta }, { requiredKeys: [] });
    const body = fc.oneof(
      message.map((m) => JSON.stringify(m)),
      fc.array(message, { maxLength: 3 }).map((m) => JSON.stringify(m)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
      message.map((m) => JSON.stringify(m).slice(0, 17)),
    );
    const requests = fc.record({ verb: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE', 'PATCH'), headers: headerSet, body });

    let count = 0;
    await fc.assert(
      fc.asyncProperty(requests, async ({ verb, headers, body: text }) => {
        count++;
        const sent: Record<string, string> = {};
        for (const [name, value] of Object.entries(headers)) if (value !== '') sent[name] = value;
        // Never cut a GET stream short of its end: a valid one stays open, so only refused GETs are sent.
        if (verb === 'GET' && sent['mcp-session-id'] === session && !sent['last-event-id']?.trim()) delete sent['mcp-session-id'];
        if (verb === 'DELETE' && sent['mcp-session-id'] === session) sent['mcp-session-id'] = 'unknown';
        const reply = await send(verb, sent, verb === 'POST' ? text : undefined);
        expect(reply.status).toBeLessThan(500);
        if (reply.headers['content-type'] === 'application/json' && reply.body !== '') {
          const parsed = JSON.parse(reply.body) as unknown;
          const all = Array.isArray(parsed) ? parsed : [parsed];
          for (const m of all) expect((m as { jsonrpc: string }).jsonrpc).toBe('2.0');
        }
      }),
      { numRuns: 10_000 },
    );
    expect(count).toBe(10_000);
    const ping = await send('POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session }, JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'ping' }));
    expect(JSON.parse(ping.body)).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
  }, 180_000);
});
