/**
 * Every 2026-07-28 result names the server in `_meta["io.modelcontextprotocol/serverInfo"]`, over
 * stdio and HTTP, merged into a `_meta` a handler returned; stateful results stay as they were. And
 * a 2026-07-28 request's handler sees its signal abort when the client cancels it: over stdio with
 * `notifications/cancelled` (over HTTP by hanging up: http-stateless.test.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createServer, type HttpListener, type JsonObject, type ServerDefinition, type ServerHandlers, type Validator } from '../../src/runtime/index.js';
import { completeResultHead, withResultFields } from '../../src/runtime/server/stateless.js';
import { RawStdio, type Message } from './raw-stdio.js';
import { call, meta, SERVER_META, statelessDefinition, statelessHandlers } from './stateless-support.js';

const ajv = new Ajv2020({ strict: false });
const anyInput = { type: 'object' };
const IDENTITY = SERVER_META['io.modelcontextprotocol/serverInfo'];
let aborted: (reason: unknown) => void = () => {};

const extraTools: Record<string, ServerHandlers['tools'][string]> = {
  with_meta: () => ({ content: [{ type: 'text', text: 'm', _meta: { 'x.example/item': true } }], _meta: { 'x.example/trace': 'abc' } }),
  own_identity: () => ({ content: [{ type: 'text', text: 'o' }], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'handler-says', version: '9' } } }),
  item_meta_only: () => ({ content: [{ type: 'text', text: 'i', _meta: { 'x.example/item': 1 } }] }),
  structured_only: () => ({ structuredContent: { a: 1 } }),
  structured_text: async () => ({ content: [{ type: 'text', text: 't' }], structuredContent: { a: 1 } }),
  structured_meta: () => ({ structuredContent: { a: 1 }, _meta: { 'x.example/k': 1 } }),
  wait_for_abort: (_input: unknown, context) =>
    new Promise<never>((_resolve, reject) => {
      context.signal.addEventListener('abort', () => {
        aborted(context.signal.reason);
        reject(new Error('aborted'));
      });
    }),
};

function definition(): ServerDefinition {
  const base = statelessDefinition();
  const names = Object.keys(extraTools);
  return {
    ...base,
    tools: [...base.tools, ...names.map((name) => ({ name, inputSchema: anyInput }))],
    toolBindings: { ...base.toolBindings, ...Object.fromEntries(names.map((name) => [name, { name, validateInput: ajv.compile(anyInput) as Validator<unknown> }])) },
  };
}
const handlers: ServerHandlers = { ...statelessHandlers, tools: { ...statelessHandlers.tools, ...extraTools } };

/** One request of every kind a 2026-07-28 client may send, with the params it needs. */
const EVERY_METHOD: [string, JsonObject][] = [
  ['server/discover', {}],
  ['tools/list', {}],
  ['tools/call', { name: 'echo', arguments: { text: 'hi' } }],
  ['tools/call', { name: 'cities', arguments: {} }],
  ['tools/call', { name: 'ask_name', arguments: {} }], // input_required
  ['tools/call', { name: 'item_meta_only', arguments: {} }],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['resources/read', { uri: 'info://server' }],
  ['prompts/list', {}],
  ['prompts/get', { name: 'greet', arguments: { name: 'Ada' } }],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'style', value: 'c' } }],
];

function expectIdentity(method: string, result: Message | undefined): void {
  expect([method, result?.['_meta']?.['io.modelcontextprotocol/serverInfo']]).toEqual([method, IDENTITY]);
}

describe('the server identity in 2026-07-28 results', () => {
  it('is in every result over stdio, merged into a handler’s _meta, and absent from stateful results', async () => {
    const raw = new RawStdio(100, () => definition(), handlers);
    let id = 1;
    for (const [method, params] of EVERY_METHOD) {
      const answer = await raw.call(id++, method, { ...params, _meta: meta({ elicitation: {} }) });
      expectIdentity(method, answer['result']);
    }
    const merged = await raw.call(id++, 'tools/call', { name: 'with_meta', arguments: {}, _meta: meta() });
    expect(merged['result']['_meta']).toEqual({ 'io.modelcontextprotocol/serverInfo': IDENTITY, 'x.example/trace': 'abc' });
    expect(merged['result']['content'][0]['_meta']).toEqual({ 'x.example/item': true });
    const own = await raw.call(id++, 'tools/call', { name: 'own_identity', arguments: {}, _meta: meta() });
    expect(own['result']['_meta']).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 'handler-says', version: '9' } });

    // Tool results are built with the fields in front (tool-results.ts): as `withResultFields` puts them.
    const shapes: [string, string[], JsonObject][] = [
      ['structured_only', ['resultType', '_meta', 'content', 'structuredContent'], { 'io.modelcontextprotocol/serverInfo': IDENTITY }],
      ['structured_text', ['resultType', '_meta', 'content', 'structuredContent'], { 'io.modelcontextprotocol/serverInfo': IDENTITY }],
      ['structured_meta', ['resultType', 'content', 'structuredContent', '_meta'], { 'io.modelcontextprotocol/serverInfo': IDENTITY, 'x.example/k': 1 }],
    ];
    for (const [name, keys, resultMeta] of shapes) {
      const { result } = await raw.call(id++, 'tools/call', { name, arguments: {}, _meta: meta() });
      expect([name, Object.keys(result), result['_meta'], result['structuredContent']]).toEqual([name, keys, resultMeta, { a: 1 }]);
    }

    const stateful = new RawStdio(100, () => definition(), handlers);
    await stateful.initialize('2025-11-25');
    const old = await stateful.call(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(old['result']).toEqual({ content: [{ type: 'text', text: 'hi' }] });
  });

  it('is in every result over HTTP', async () => {
    const listener: HttpListener = await createServer(definition(), handlers, { logger: () => {} }).listenHttp({});
    try {
      for (const [method, params] of EVERY_METHOD) {
        const answer = await call(listener.url, method, { ...params, _meta: meta({ elicitation: {} }) });
        expect([method, answer.status]).toEqual([method, 200]);
        expectIdentity(method, answer.body.result);
      }
      const merged = await call(listener.url, 'tools/call', { name: 'with_meta', arguments: {}, _meta: meta() });
      expect(merged.body.result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': IDENTITY, 'x.example/trace': 'abc' });
    } finally {
      await listener.close();
    }
  });

  it('is spliced into the result text without parsing it, whatever the result looks like', () => {
    const member = { serverInfoMember: '"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}', cacheFields: new Map([['tools/list', '"ttlMs":0,"cacheScope":"public",']]) };
    const fields = (result: string, method = 'tools/call') => JSON.parse(withResultFields(`{"jsonrpc":"2.0","id":1,"result":${result}}`, '1', method, member)).result;
    expect(fields('{}')).toEqual({ resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } });
    expect(fields('{"a":1}', 'tools/list')).toEqual({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } }, a: 1 });
    expect(fields('{"a":"\\"_meta\\"","_meta":{}}')).toEqual({ resultType: 'complete', a: '"_meta"', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } });
    expect(fields('{"_meta" : { "k" : [1,{"_meta":2}] }}')._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' }, k: [1, { _meta: 2 }] });
    expect(fields('{"resultType":"input_required","inputRequests":{}}')).toEqual({
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
      resultType: 'input_required',
      inputRequests: {},
    });
    // A result that already opens with what would be added passes as it is: the same text, not scanned.
    for (const [method, result] of [['tools/call', '{"content":[]}'], ['tools/list', '{"tools":[]}'], ['tools/call', '{}']]) {
      const once = withResultFields(`{"jsonrpc":"2.0","id":"x","result":${result}}`, '"x"', method!, member);
      expect(withResultFields(once, '"x"', method!, member)).toBe(once);
      expect(once.startsWith(`{"jsonrpc":"2.0","id":"x","result":{${completeResultHead(member, method!)}`)).toBe(true);
    }
    const error = '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"m"}}';
    expect(withResultFields(error, '1', 'tools/call', member)).toBe(error);
  });
});

describe('cancelling a 2026-07-28 request over stdio', () => {
  it('aborts the handler’s signal on notifications/cancelled and sends no result for it', async () => {
    const raw = new RawStdio(100, () => definition(), handlers);
    const reason = new Promise((resolve) => (aborted = resolve));
    raw.sendJson({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'wait_for_abort', arguments: {}, _meta: meta() } });
    // The request is running once a later one has been answered.
    await raw.call('probe', 'tools/call', { name: 'echo', arguments: { text: 'x' }, _meta: meta() });
    raw.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'user left' } });
    expect(await reason).toMatchObject({ message: 'user left' });
    expect((await raw.call('after', 'tools/call', { name: 'echo', arguments: { text: 'y' }, _meta: meta() }))['result']['content'][0]['text']).toBe('y');
    expect(raw.received.some((m) => m['id'] === 'long')).toBe(false);
  });

  it('routes a notifications/cancelled that carries the 2026-07-28 _meta envelope (as the SDK 2.x client sends it)', async () => {
    const raw = new RawStdio(100, () => definition(), handlers);
    const reason = new Promise((resolve) => (aborted = resolve));
    raw.sendJson({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {}, _meta: meta() } });
    await raw.call('probe', 'tools/call', { name: 'echo', arguments: { text: 'x' }, _meta: meta() });
    raw.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'enveloped', _meta: meta() } });
    expect(await reason).toMatchObject({ message: 'enveloped' });
    expect((await raw.call('after', 'tools/call', { name: 'echo', arguments: { text: 'y' }, _meta: meta() }))['result']['content'][0]['text']).toBe('y');
    expect(raw.received.some((m) => m['id'] === 7)).toBe(false);
  });
});
