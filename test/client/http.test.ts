/**
 * The Streamable HTTP client against raw mock servers (node:http, 127.0.0.1): standard headers and
 * `Mcp-Param-*` with the base64 rule, session ids, 404 → a new session, a broken SSE stream resumed
 * after `retry` with `Last-Event-ID`, DELETE on close; the legacy HTTP+SSE fallback; and the
 * stateless 2026-07-28 revision with an input-required round trip.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, importClient } from './support.js';
import { loopbackServer } from './loopback-server.js';

const { listen } = loopbackServer();

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: { [key: string]: any } | undefined;
  at: number;
}

type TypedModule = {
  connect(options: object): Promise<{
    server: { protocolVersion: string };
    tools: { regionEcho(input: { region: string; text?: string }): Promise<{ content: { text: string }[] }> };
    close(): Promise<void>;
  }>;
};

/** The Node client (node:http) and the --browser one (fetch, Node's here): the same behaviour on both wires. */
const WIRES = [
  { wire: 'node:http', flags: [] as string[], typed: undefined as unknown as TypedModule },
  { wire: 'fetch (--browser)', flags: ['--browser'], typed: undefined as unknown as TypedModule },
];

beforeAll(async () => {
  for (const wire of WIRES) {
    const { dir, run } = await generate(['test/fixtures/client/typed/manifest.yaml', ...wire.flags]);
    expect(run.code, run.err).toBe(0);
    wire.typed = await importClient<TypedModule>(dir);
  }
}, 60_000);

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const result = (id: unknown, value: unknown) => ({ jsonrpc: '2.0', id, result: value });
const initializeResult = (version: string) => ({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'mock', version: '1' } });

describe.each(WIRES)('on $wire', (wire) => {
  describe('Streamable HTTP', () => {
    it('sends the standard and mirrored headers, resumes a broken stream after retry with Last-Event-ID, renews an expired session, and deletes it on close', async () => {
      const seen: Seen[] = [];
      let sessions = 0;
      let expireNext = false;
      let streamBrokenAt = 0;
      const url = await listen((req, body, res) => {
        seen.push({ method: req.method ?? '', headers: req.headers, body, at: Date.now() });
        const session = req.headers['mcp-session-id'];
        if (req.method === 'DELETE') return void res.writeHead(204).end();
        if (req.method === 'GET' && req.headers['last-event-id'] === undefined) return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const pending = seen.find((s) => s.body?.method === 'tools/call' && s.headers['mcp-session-id'] === session);
          res.end(`id: e2\ndata: ${JSON.stringify(result(pending?.body?.id, { content: [{ type: 'text', text: 'resumed' }] }))}\n\n`);
          return;
        }
        if (body.method === 'server/discover') return void res.writeHead(400).end('Bad Request: no session');
        if (body.method === 'initialize') return json(res, 200, result(body.id, initializeResult(body.params.protocolVersion)), { 'mcp-session-id': `s${++sessions}` });
        if (body.id === undefined) return void res.writeHead(202).end();
        if (expireNext) {
          expireNext = false;
          return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
        }
        // Primes the stream, asks for a 200 ms pause, and breaks off before the answer.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: e1\nretry: 200\ndata: \n\n');
        setTimeout(() => {
          streamBrokenAt = Date.now();
          res.end();
        }, 20);
      });

      const client = await wire.typed.connect({ url });
      expect(client.server.protocolVersion).toBe('2025-11-25');
      const answer = await client.tools.regionEcho({ region: 'Hello, 世界', text: 'x' });
      expect(answer.content[0]?.text).toBe('resumed');

      const call = seen.find((s) => s.body?.method === 'tools/call')!;
      expect(call.headers['mcp-method']).toBe('tools/call');
      expect(call.headers['mcp-name']).toBe('region_echo');
      expect(call.headers['mcp-param-region']).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
      expect(call.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(call.headers['mcp-session-id']).toBe('s1');
      expect(seen.find((s) => s.body?.method === 'initialize')!.headers['mcp-method']).toBe('initialize');
      const resume = seen.find((s) => s.method === 'GET' && s.headers['last-event-id'] !== undefined)!;
      expect(resume.headers['last-event-id']).toBe('e1');
      expect(resume.headers['mcp-session-id']).toBe('s1');
      expect(resume.at - streamBrokenAt).toBeGreaterThanOrEqual(190);

      expireNext = true;
      const again = await client.tools.regionEcho({ region: 'us-west1' });
      expect(again.content[0]?.text).toBe('resumed');
      const initializes = seen.filter((s) => s.body?.method === 'initialize');
      expect(initializes).toHaveLength(2);
      expect(initializes[1]!.headers['mcp-session-id']).toBeUndefined();
      const retried = seen.filter((s) => s.body?.method === 'tools/call').at(-1)!;
      expect(retried.headers['mcp-session-id']).toBe('s2');
      expect(retried.headers['mcp-param-region']).toBe('us-west1');

      await client.close();
      const deleted = seen.find((s) => s.method === 'DELETE')!;
      expect(deleted.headers['mcp-session-id']).toBe('s2');
    });

    it('falls back to the legacy HTTP+SSE transport when the initialize POST is refused with 405', async () => {
      let stream: ServerResponse | undefined;
      const posts: string[] = [];
      const url = await listen((req, body, res) => {
        if (req.url === '/mcp' && req.method === 'GET') {
          stream = res;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: endpoint\ndata: /messages?session=abc\n\n');
          return;
        }
        if (req.url === '/messages?session=abc' && req.method === 'POST') {
          posts.push(body.method ?? 'response');
          res.writeHead(202).end();
          const answer =
            body.method === 'initialize'
              ? result(body.id, initializeResult('2024-11-05'))
              : body.method === 'tools/call'
                ? result(body.id, { content: [{ type: 'text', text: `legacy ${body.params.arguments.region}` }] })
                : undefined;
          if (answer) stream?.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
          return;
        }
        res.writeHead(405, { allow: 'GET' }).end();
      });
      const client = await wire.typed.connect({ url });
      expect(client.server.protocolVersion).toBe('2024-11-05');
      expect((await client.tools.regionEcho({ region: 'eu' })).content[0]?.text).toBe('legacy eu');
      expect(posts).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
      await client.close();
    });
  });

  describe('the stateless revision 2026-07-28', () => {
    it('discovers, puts _meta and the version header on every request, and answers input-required results', async () => {
      const seen: Seen[] = [];
      const url = await listen((req, body, res) => {
        seen.push({ method: req.method ?? '', headers: req.headers, body, at: Date.now() });
        if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
        if (body.method === 'server/discover') {
          return json(res, 200, result(body.id, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, cacheScope: 'public', ttlMs: 0 }));
        }
        if (body.method === 'tools/call' && body.params.requestState === undefined) {
          return json(res, 200, result(body.id, {
            resultType: 'input_required',
            inputRequests: { who: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } } },
            requestState: 'state-1',
          }));
        }
        const name = body.params.inputResponses?.who?.content?.name;
        return json(res, 200, result(body.id, { resultType: 'complete', content: [{ type: 'text', text: `hello ${name}` }] }));
      });
      const client = await wire.typed.connect({
        url,
        clientInfo: { name: 'test-app', version: '2.0.0' },
        handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ann' } }) },
      });
      expect(client.server.protocolVersion).toBe('2026-07-28');
      expect((await client.tools.regionEcho({ region: 'eu' })).content[0]?.text).toBe('hello Ann');
      await client.close();

      const posts = seen.filter((s) => s.method === 'POST');
      expect(posts.map((s) => s.body?.method)).toEqual(['server/discover', 'tools/call', 'tools/call']);
      for (const post of posts) {
        expect(post.headers['mcp-protocol-version']).toBe('2026-07-28');
        expect(post.body?.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
        expect(post.body?.params._meta['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'test-app', version: '2.0.0' });
        expect(post.body?.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {} } });
      }
      expect(posts[2]!.body?.params.requestState).toBe('state-1');
      expect(new Set(posts.map((s) => s.body?.id)).size).toBe(3);
    });
  });
});

describe('introspection over HTTP (mcp-gen client --from-url)', () => {
  it('sends --header on every request and reads every page of tools, prompts, resources and templates', async () => {
    const seen: Seen[] = [];
    const pages: Record<string, [string, unknown[]][]> = {
      'tools/list': [
        ['tools', [{ name: 'first', inputSchema: { type: 'object' } }]],
        ['tools', [{ name: 'second', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }]],
      ],
      'prompts/list': [['prompts', [{ name: 'p1' }]], ['prompts', [{ name: 'p2', arguments: [{ name: 'a', required: true }] }]]],
      'resources/list': [['resources', [{ uri: 'file:///a', name: 'a' }]], ['resources', [{ uri: 'file:///b', name: 'b' }]]],
      'resources/templates/list': [['resourceTemplates', [{ uriTemplate: 'file:///{x}', name: 't' }]]],
    };
    const url = await listen((req, body, res) => {
      seen.push({ method: req.method ?? '', headers: req.headers, body, at: Date.now() });
      if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
      if (body.method === 'initialize') {
        return json(res, 200, result(body.id, { ...initializeResult(body.params.protocolVersion), capabilities: { tools: {}, prompts: {}, resources: {} } }));
      }
      if (body.id === undefined) return void res.writeHead(202).end();
      const list = pages[body.method];
      if (list === undefined) return json(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'no' } });
      const index = body.params?.cursor === undefined ? 0 : Number(body.params.cursor);
      const [field, items] = list[index]!;
      return json(res, 200, result(body.id, { [field]: items, ...(index + 1 < list.length ? { nextCursor: String(index + 1) } : {}) }));
    });
    const { dir, run } = await generate(['--from-url', url, '--header', 'Authorization: Bearer secret', '--header', 'X-Tenant: t1']);
    expect(run.code, run.err).toBe(0);
    const posts = seen.filter((s) => s.method === 'POST');
    expect(posts.length).toBeGreaterThan(8);
    for (const post of posts) {
      expect(post.headers['authorization']).toBe('Bearer secret');
      expect(post.headers['x-tenant']).toBe('t1');
    }
    const { readFileSync } = await import('node:fs');
    const client = readFileSync(`${dir}/client/client.ts`, 'utf8');
    for (const name of ['readonly first:', 'readonly second:', 'readonly p1:', 'readonly p2:', 'readonly t:']) expect(client).toContain(name);
    expect(readFileSync(`${dir}/client/types.ts`, 'utf8')).toContain("export type ResourceUri = 'file:///a' | 'file:///b';");
  }, 60_000);
});
