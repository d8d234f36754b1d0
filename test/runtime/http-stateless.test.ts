/**
 * The stateless revision 2026-07-28 on the shared Streamable HTTP endpoint: routing, the pinned
 * validation order, the header rules (Mcp-Method, Mcp-Name, Mcp-Param-*), result fields,
 * input-required results with a signed requestState, per-request logs and subscriptions/listen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { call, meta, REVISION, SERVER_META, statelessDefinition, statelessHandlers } from './stateless-support.js';
import { listen } from '../transports/adapters.js';

let listener: HttpListener;
let url: string;
const serverLog: string[] = [];

beforeAll(async () => {
  listener = await listen(createServer(statelessDefinition(), statelessHandlers, { logger: (line) => serverLog.push(line) }), {});
  url = listener.url;
});
afterAll(() => listener.close());

describe('2026-07-28 on the shared endpoint', () => {
  it('answers server/discover with versions, capabilities, serverInfo and cache fields', async () => {
    const { status, body } = await call(url, 'server/discover', { _meta: meta() });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
      capabilities: { tools: { listChanged: true } },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'runtime-demo', version: '1.0.0' } },
    });
    expect(body.result.supportedVersions).toEqual([REVISION, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  });

  it('puts resultType on every result and cache fields on lists and reads, in manifest order', async () => {
    const first = await call(url, 'tools/list', { _meta: meta() });
    const second = await call(url, 'tools/list', { _meta: meta() });
    expect(first.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expect(first.body.result.tools.map((t: { name: string }) => t.name)).toEqual(second.body.result.tools.map((t: { name: string }) => t.name));
    const read = await call(url, 'resources/read', { uri: 'info://server', _meta: meta() });
    expect(read.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const echo = await call(url, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: meta() });
    expect(echo.body).toEqual({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', _meta: SERVER_META, content: [{ type: 'text', text: 'hi' }] } });
  });

  it('checks _meta, then the version header, then the version, then the method, echoing the id', async () => {
    const noMeta = await call(url, 'server/discover', {}, { id: 101 });
    expect([noMeta.status, noMeta.body.error.code, noMeta.body.id]).toEqual([400, -32602, 101]);
    const noCaps = await call(url, 'server/discover', { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION } }, { id: 104 });
    expect([noCaps.status, noCaps.body.error.code]).toEqual([400, -32602]);
    const noInfo = await call(url, 'server/discover', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION, 'io.modelcontextprotocol/clientCapabilities': {} },
    });
    expect(noInfo.status).toBe(200);
    const mismatch = await call(url, 'server/discover', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) }, { id: 302 });
    expect([mismatch.status, mismatch.body.error.code, mismatch.body.id]).toEqual([400, -32020, 302]);
    const unsupported = await call(
      url,
      'server/discover',
      { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) },
      { id: 301, headers: { 'mcp-protocol-version': 'v999.0.0' } },
    );
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.error).toMatchObject({ code: -32022, data: { supported: [REVISION], requested: 'v999.0.0' } });
    for (const removed of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'unknown/method']) {
      const answer = await call(url, removed, { _meta: meta() }, { id: 500 });
      expect([removed, answer.status, answer.body.error.code, answer.body.id]).toEqual([removed, 404, -32601, 500]);
    }
  });

  it('routes stateful traffic around the stateless path: initialize with a stateful header opens a session', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'initialize' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(((await response.json()) as { result: { resultType?: string } }).result.resultType).toBeUndefined();
  });

  it('requires Mcp-Method and Mcp-Name to match the body, trims padding, ignores header-name case', async () => {
    const params = { name: 'echo', arguments: { text: 'x' }, _meta: meta() };
    const cases: [Record<string, string | undefined>, number][] = [
      [{ 'mcp-method': 'prompts/list' }, 400],
      [{ 'mcp-method': undefined }, 400],
      [{ 'mcp-method': 'TOOLS/CALL' }, 400],
      [{ 'mcp-name': 'wrong_tool' }, 400],
      [{ 'mcp-name': undefined }, 400],
      [{ 'mcp-name': '  echo  ' }, 200],
      [{ 'mcp-method': undefined, 'MCP-METHOD': 'tools/call' }, 200],
    ];
    for (const [headers, status] of cases) {
      const answer = await call(url, 'tools/call', params, { headers });
      expect([JSON.stringify(headers), answer.status]).toEqual([JSON.stringify(headers), status]);
      if (status === 400) expect(answer.body.error.code).toBe(-32020);
      else expect(answer.body.result.content[0].text).toBe('x');
    }
  });

  it('checks Mcp-Param-* headers, with the strict =?base64?…?= rule', async () => {
    const params = (args: Record<string, unknown>) => ({ name: 'region', arguments: args, _meta: meta() });
    const ok = await call(url, 'tools/call', params({ region: 'Hello' }), { headers: { 'mcp-param-region': '=?base64?SGVsbG8=?=' } });
    expect(ok.body.result.content[0].text).toBe('region Hello');
    const literal = await call(url, 'tools/call', params({ region: 'SGVsbG8=' }), { headers: { 'mcp-param-region': 'SGVsbG8=' } });
    expect(literal.status).toBe(200);
    const number = await call(url, 'tools/call', params({ region: 'eu', count: 42 }), { headers: { 'mcp-param-region': 'eu', 'mcp-param-count': '42' } });
    expect(number.status).toBe(200);
    const unicode = await call(url, 'tools/call', params({ region: ' Zürich' }), {
      headers: { 'mcp-param-region': `=?base64?${Buffer.from(' Zürich').toString('base64')}?=` },
    });
    expect(unicode.body.result.content[0].text).toBe('region  Zürich');
    const refused: Record<string, string | undefined>[] = [
      { 'mcp-param-region': '=?base64?SGVsbG8?=' },
      { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' },
      { 'mcp-param-region': undefined },
      { 'mcp-param-region': 'Goodbye' },
    ];
    for (const headers of refused) {
      const answer = await call(url, 'tools/call', params({ region: 'Hello' }), { headers });
      expect([JSON.stringify(headers), answer.status, answer.body.error.code]).toEqual([JSON.stringify(headers), 400, -32020]);
    }
    const absentArgument = await call(url, 'tools/call', params({ region: 'Hello' }), { headers: { 'mcp-param-region': 'Hello', 'mcp-param-count': '1' } });
    expect([absentArgument.status, absentArgument.body.error.code]).toEqual([400, -32020]);
  });

  it('asks for input with an input-required result and finishes on the retry; a tampered state is refused', async () => {
    const caps = { elicitation: {} };
    const first = await call(url, 'tools/call', { name: 'ask_name', arguments: {}, _meta: meta(caps) });
    const result = first.body.result;
    expect(result.resultType).toBe('input_required');
    const [key, request] = Object.entries(result.inputRequests as Record<string, { method: string; params: unknown }>)[0]!;
    expect(request.method).toBe('elicitation/create');
    expect(typeof result.requestState).toBe('string');
    const answer = { action: 'accept', content: { name: 'Ada' } };
    const second = await call(url, 'tools/call', { name: 'ask_name', arguments: {}, inputResponses: { [key]: answer }, requestState: result.requestState, _meta: meta(caps) });
    expect(second.body.result).toEqual({ resultType: 'complete', _meta: SERVER_META, content: [{ type: 'text', text: 'Hello, Ada' }] });
    const tampered = await call(url, 'tools/call', { name: 'ask_name', arguments: {}, inputResponses: { [key]: answer }, requestState: result.requestState + '-TAMPERED', _meta: meta(caps) });
    expect(tampered.body.error.code).toBe(-32602);
    const elsewhere = await call(url, 'tools/call', { name: 'list_roots', arguments: {}, requestState: result.requestState, _meta: meta({ roots: {} }) });
    expect(elsewhere.body.error.code).toBe(-32602);
    const wrongShape = await call(url, 'tools/call', { name: 'ask_name', arguments: {}, inputResponses: { [key]: { action: 12345 } }, _meta: meta(caps) });
    expect(wrongShape.body.result.resultType).toBe('input_required');
    // A response filed under `__proto__` is one more unknown key, not a prototype for the others.
    const smuggled = await call(url, 'tools/call', { name: 'ask_name', arguments: {}, inputResponses: { ['__proto__']: { [key]: answer } }, _meta: meta(caps) });
    expect(smuggled.body.result.resultType).toBe('input_required');
    const nullResponses = await call(url, 'tools/call', { name: 'ask_name', arguments: {}, inputResponses: null, _meta: meta(caps) });
    expect(nullResponses.body.error.code).toBe(-32602);
  });

  it('answers -32021 with HTTP 400 when the request lacks the capability a handler needs', async () => {
    const answer = await call(url, 'tools/call', { name: 'ask_name', arguments: {}, _meta: meta({}) }, { id: 401 });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ id: 401, error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } } });
  });

  it('sends progress on the POST stream before the result, and logs only when _meta asks for them', async () => {
    const quiet = await call(url, 'tools/call', { name: 'slow', arguments: { steps: 2, ms: 1 }, _meta: meta({}, { progressToken: 'p1' }) });
    expect(quiet.contentType).toBe('text/event-stream');
    expect(quiet.messages.map((m) => m.method ?? 'result')).toEqual(['notifications/progress', 'notifications/progress', 'result']);
    expect(quiet.messages[0].params.progressToken).toBe('p1');
    expect(quiet.body.result.resultType).toBe('complete');
    const chatty = await call(url, 'tools/call', { name: 'slow', arguments: { steps: 1, ms: 1 }, _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'debug' }) });
    expect(chatty.messages.some((m) => m.method === 'notifications/message')).toBe(true);
    expect(chatty.messages.every((m) => m.method !== 'elicitation/create')).toBe(true);
  });

  it('acknowledges subscriptions/listen, honours its filter and tags every notification', async () => {
    const abort = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true, resourcesListChanged: true }, _meta: meta() } }),
    });
    const reader = response.body!.getReader();
    let text = '';
    const next = async () => {
      while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
      const event = text.slice(0, text.indexOf('\n\n'));
      text = text.slice(text.indexOf('\n\n') + 2);
      return JSON.parse(event.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
    };
    const ack = await next();
    // resourcesListChanged is not offered by this server, so it is not honoured.
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    await call(url, 'tools/call', { name: 'region', arguments: { region: 'eu' }, _meta: meta() }, { headers: { 'mcp-param-region': 'eu' } });
    expect(await next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    abort.abort();
  });

  it('checks each request against the 2026-07-28 schema: _meta fields, arguments, inputResponses, requestState', async () => {
    const bad = [
      { name: 'echo', arguments: { text: 'hi' }, _meta: meta({}, { 'io.modelcontextprotocol/clientInfo': { name: 'no-version' } }) },
      { name: 'echo', arguments: { text: 'hi' }, _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'loud' }) },
      { name: 'echo', arguments: { text: 'hi' }, _meta: meta({ elicitation: 'yes' }) },
      { name: 'echo', arguments: 'hi', _meta: meta() },
      { name: 'echo', arguments: { text: 'hi' }, inputResponses: [], _meta: meta() },
      { name: 'echo', arguments: { text: 'hi' }, requestState: 42, inputResponses: { key: { action: 'accept' } }, _meta: meta() },
    ];
    for (const params of bad) {
      const answer = await call(url, 'tools/call', params, { id: 'bad' });
      expect([JSON.stringify(params), answer.body.id, answer.body.error?.code]).toEqual([JSON.stringify(params), 'bad', -32602]);
    }
    const listen = await call(url, 'subscriptions/listen', { _meta: meta() }, { id: 'listen' });
    expect(listen.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('notifications') });
    // The same shapes pass when they are right.
    const good = await call(url, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'error' }) });
    expect(good.body.result).toEqual({ resultType: 'complete', _meta: SERVER_META, content: [{ type: 'text', text: 'hi' }] });
  });

  it('cancels the handler when the client hangs up before the result', async () => {
    const count = async () => Number((await call(url, 'tools/call', { name: 'aborted_count', _meta: meta() })).body.result.content[0].text);
    const before = await count();
    const abort = new AbortController();
    const params = { name: 'slow', arguments: { steps: 1, ms: 60_000 }, _meta: meta() };
    const pending = fetch(url, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call', 'mcp-name': 'slow' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'hang-up', method: 'tools/call', params }),
    }).catch((error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 100));
    abort.abort();
    expect(await pending).toBe('AbortError');
    let after = before;
    for (let attempt = 0; attempt < 50 && after === before; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await count();
    }
    expect(after).toBe(before + 1);
  });

  it('serves a non-object outputSchema to 2026-07-28, and older sessions a tool and results their schema allows', async () => {
    const list = await call(url, 'tools/list', { _meta: meta() });
    expect(list.body.result.tools.find((t: { name: string }) => t.name === 'cities').outputSchema).toEqual({ type: 'array', items: { type: 'string' } });
    const modern = await call(url, 'tools/call', { name: 'cities', _meta: meta() });
    expect(modern.body.result).toEqual({ resultType: 'complete', _meta: SERVER_META, content: [{ type: 'text', text: '["Tokyo","Delhi"]' }], structuredContent: ['Tokyo', 'Delhi'] });

    const post = (body: unknown, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session } : {}) },
        body: JSON.stringify(body),
      });
    const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    const tools = ((await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, session)).json()) as { result: { tools: { name: string; outputSchema?: unknown }[] } }).result.tools;
    expect(tools.find((t) => t.name === 'cities')).toEqual({ name: 'cities', description: 'A list, as structured output', inputSchema: { type: 'object' } });
    expect(tools.find((t) => t.name === 'get_weather')!.outputSchema).toBeDefined();
    const old = (await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'cities' } }, session)).json()) as { result: unknown };
    expect(old.result).toEqual({ content: [{ type: 'text', text: '["Tokyo","Delhi"]' }] });
  });
});

describe('a 2026-07-28 request whose client goes while the revision validators load', () => {
  it('is never started; the next one is', async () => {
    let started = 0;
    const definition = statelessDefinition();
    const load = definition.statelessValidators as () => Promise<Record<string, unknown>>;
    // The table loads slowly, as a large module may: the client leaves before it has.
    const slowTable = () => new Promise((resolve) => setTimeout(resolve, 1000)).then(() => load());
    const server = createServer(
      { ...definition, statelessValidators: slowTable as NonNullable<typeof definition.statelessValidators> },
      { ...statelessHandlers, tools: { ...statelessHandlers.tools, echo: (input: { text: string }) => ((started += 1), { content: [{ type: 'text', text: input.text }] }) } },
      { logger: () => {} },
    );
    const own = await listen(server, {});
    try {
      const params = { name: 'echo', arguments: { text: 'gone' }, _meta: meta() };
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
      const leaving = new AbortController();
      const first = fetch(own.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }), signal: leaving.signal });
      await new Promise((resolve) => setTimeout(resolve, 100));
      leaving.abort();
      await first.catch(() => undefined);
      // Well after the table loaded: the request that lost its client did not run.
      await new Promise((resolve) => setTimeout(resolve, 1400));
      expect(started).toBe(0);
      const second = await call(own.url, 'tools/call', { name: 'echo', arguments: { text: 'here' }, _meta: meta() });
      expect(second.body.result.content).toEqual([{ type: 'text', text: 'here' }]);
      expect(started).toBe(1);
    } finally {
      await own.close();
    }
  });
});
