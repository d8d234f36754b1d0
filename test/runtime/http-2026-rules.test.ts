/**
 * Streamable HTTP under 2026-07-28, at the level of raw requests: a session id is ignored, GET and
 * DELETE are 405, a posted response is 400, a non-UTF-8 charset is 415 (both eras), and the header
 * rules decode `=?base64?…?=` in Mcp-Name and Mcp-Param-*, compare integers numerically and check
 * `x-mcp-header` on nested properties exactly where the client mirrors it.
 */
import { Buffer } from 'node:buffer';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener, type ServerDefinition, type ServerHandlers, type Validator } from '../../src/runtime/index.js';
import { bindListedTool, callTool, openSession } from '../../src/runtime/client/index.js';
import { call, meta, REVISION, standardHeaders, statelessDefinition, statelessHandlers } from './stateless-support.js';
import { listen } from '../transports/adapters.js';

const ajv = new Ajv2020({ strict: false });
const SENTINEL_NAME = '=?base64?abc?=';
const nestedInput = {
  type: 'object',
  properties: {
    target: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Target-Region' },
        shard: { type: 'integer', 'x-mcp-header': 'Shard' },
      },
    },
    note: { type: 'string' },
  },
};
const anyInput = { type: 'object' };

function definition(): ServerDefinition {
  const base = statelessDefinition();
  return {
    ...base,
    tools: [
      ...base.tools,
      { name: 'nested', description: 'Mirrors nested properties', inputSchema: nestedInput },
      { name: SENTINEL_NAME, description: 'A name that looks encoded', inputSchema: anyInput },
    ],
    toolBindings: {
      ...base.toolBindings,
      nested: { name: 'nested', validateInput: ajv.compile(nestedInput) as Validator<unknown> },
      [SENTINEL_NAME]: { name: SENTINEL_NAME, validateInput: ajv.compile(anyInput) as Validator<unknown> },
    },
    prompts: [...base.prompts, { name: 'résumé', description: 'A name outside ASCII' }],
  };
}

const handlers: ServerHandlers = {
  ...statelessHandlers,
  tools: {
    ...statelessHandlers.tools,
    nested: (input: { target?: { region?: string } }) => ({ content: [{ type: 'text', text: `nested ${input.target?.region ?? '-'}` }] }),
    [SENTINEL_NAME]: () => ({ content: [{ type: 'text', text: 'sentinel' }] }),
  },
  prompts: {
    ...statelessHandlers.prompts,
    'résumé': () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'a résumé' } }] }),
  },
};

let listener: HttpListener;
let url: string;

beforeAll(async () => {
  listener = await listen(createServer(definition(), handlers, { logger: () => {} }), {});
  url = listener.url;
});
afterAll(() => listener.close());

const base64 = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const BOTH = 'application/json, text/event-stream';

/** Opens a 2025-11-25 session the raw way; its id. */
async function statefulSession(): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: BOTH },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }),
  });
  await init.text();
  return init.headers.get('mcp-session-id')!;
}

describe('2026-07-28 requests on the shared endpoint', () => {
  it('ignores an Mcp-Session-Id: the request is served statelessly, and no session id is minted or echoed', async () => {
    const session = await statefulSession();
    for (const id of ['no-such-session', session]) {
      const params = { name: 'echo', arguments: { text: 'hi' }, _meta: meta() };
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...standardHeaders('tools/call', params), 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const body = (await response.json()) as { id: number; result: { resultType: string; content: unknown } };
      expect(body.id).toBe(5);
      expect(body.result.resultType).toBe('complete');
      expect(body.result.content).toEqual([{ type: 'text', text: 'hi' }]);
    }
    // The session itself is untouched and still serves its stateful client.
    const list = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { result: { resultType?: string } }).result.resultType).toBeUndefined();
  });

  it('answers GET and DELETE with MCP-Protocol-Version 2026-07-28 with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { accept: 'text/event-stream', 'mcp-protocol-version': REVISION } });
      expect([method, response.status, response.headers.get('allow')]).toEqual([method, 405, 'POST']);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain('only POST');
    }
    // Even beside a session id: 2026-07-28 has neither method.
    const session = await statefulSession();
    const withSession = await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-session-id': session } });
    expect(withSession.status).toBe(405);
    await withSession.text();
  });

  it('keeps GET and DELETE of a 2025-11-25 session working', async () => {
    const session = await statefulSession();
    const abort = new AbortController();
    const stream = await fetch(url, {
      method: 'GET',
      signal: abort.signal,
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    abort.abort();
    const deleted = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(204);
  });

  it('refuses a posted JSON-RPC response with 400 and still accepts a notification with 202', async () => {
    const headers = { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': REVISION };
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, result: {} }) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('no JSON-RPC responses'),
    });
    const error = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, error: { code: 1, message: 'x' } }) });
    expect(error.status).toBe(400);
    await error.text();
    const shapeless = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3 }) });
    expect(shapeless.status).toBe(400);
    await shapeless.text();
    const notification = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-method': 'notifications/cancelled' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: meta() } }),
    });
    expect(notification.status).toBe(202);
    // The server goes on serving.
    expect((await call(url, 'tools/call', { name: 'echo', arguments: { text: 'after' }, _meta: meta() })).status).toBe(200);
  });

  it('refuses a charset other than UTF-8 with 415 in both eras, and takes UTF-8 however it is written', async () => {
    const params = { name: 'echo', arguments: { text: 'hi' }, _meta: meta() };
    for (const contentType of ['application/json; charset=iso-8859-1', 'application/json;charset=utf-16', 'application/json; charset="latin1"']) {
      const answer = await call(url, 'tools/call', params, { headers: { 'content-type': contentType } });
      expect([contentType, answer.status]).toEqual([contentType, 415]);
    }
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'Application/JSON ; Charset="utf-8"']) {
      const answer = await call(url, 'tools/call', params, { headers: { 'content-type': contentType } });
      expect([contentType, answer.status]).toEqual([contentType, 200]);
    }
    const session = await statefulSession();
    const stateful = (contentType: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': contentType, accept: BOTH, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    const refused = await stateful('application/json; charset=iso-8859-1');
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('UTF-8');
    const accepted = await stateful('application/json; charset=utf-8');
    expect(accepted.status).toBe(200);
    await accepted.text();
  });
});

describe('2026-07-28 header values', () => {
  it('decodes a base64 Mcp-Name: a prompt named résumé works from our own client and raw', async () => {
    const client = await openSession({ url, clientInfo: { name: 'rules', version: '1' } });
    try {
      const result = await client.request('prompts/get', { name: 'résumé' });
      expect(result['messages']).toEqual([{ role: 'user', content: { type: 'text', text: 'a résumé' } }]);
    } finally {
      await client.close();
    }
    const params = { name: 'résumé', _meta: meta() };
    const raw = await call(url, 'prompts/get', params, { headers: { 'mcp-name': base64('résumé') } });
    expect(raw.status).toBe(200);
    const wrong = await call(url, 'prompts/get', params, { headers: { 'mcp-name': base64('resume') } });
    expect([wrong.status, wrong.body.error.code]).toEqual([400, -32020]);
  });

  it('matches a tool literally named like the sentinel only after decoding', async () => {
    const params = { name: SENTINEL_NAME, arguments: {}, _meta: meta() };
    const encoded = await call(url, 'tools/call', params, { headers: { 'mcp-name': base64(SENTINEL_NAME) } });
    expect([encoded.status, encoded.body.result?.content?.[0]?.text]).toEqual([200, 'sentinel']);
    // Sent as is, the value is read as an encoding, and a broken one.
    const literal = await call(url, 'tools/call', params, { headers: { 'mcp-name': SENTINEL_NAME } });
    expect([literal.status, literal.body.error.code]).toEqual([400, -32020]);
    // The markers are lower case only: anything else is a plain value, compared as it is.
    const upper = await call(url, 'tools/call', { ...params, name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': '=?BASE64?ZWNobw==?=' } });
    expect([upper.status, upper.body.error.code]).toEqual([400, -32020]);
  });

  it('compares an integer parameter numerically and a string one exactly', async () => {
    const params = { name: 'region', arguments: { region: 'eu', count: 42 }, _meta: meta() };
    for (const [count, status] of [['42', 200], ['42.0', 200], ['4.2e1', 200], [base64('42'), 200], ['42.5', 400], ['0x2A', 400], ['', 400], ['forty-two', 400]] as const) {
      const answer = await call(url, 'tools/call', params, { headers: { 'mcp-param-region': 'eu', 'mcp-param-count': count } });
      expect([count, answer.status]).toEqual([count, status]);
      if (status === 400) expect(answer.body.error.code).toBe(-32020);
    }
    const region = await call(url, 'tools/call', params, { headers: { 'mcp-param-region': 'eu ', 'mcp-param-count': '42' } });
    expect(region.status).toBe(200); // optional whitespace around a header value is not part of it
    const otherRegion = await call(url, 'tools/call', params, { headers: { 'mcp-param-region': 'EU', 'mcp-param-count': '42' } });
    expect(otherRegion.status).toBe(400);
  });

  it('checks x-mcp-header on nested properties, as the client mirrors them', async () => {
    const params = { name: 'nested', arguments: { target: { region: 'eu-west', shard: 3 }, note: 'n' }, _meta: meta() };
    const good = await call(url, 'tools/call', params, { headers: { 'mcp-param-target-region': 'eu-west', 'mcp-param-shard': '3' } });
    expect([good.status, good.body.result?.content?.[0]?.text]).toEqual([200, 'nested eu-west']);
    const missing = await call(url, 'tools/call', params, { headers: { 'mcp-param-shard': '3' } });
    expect([missing.status, missing.body.error.code]).toEqual([400, -32020]);
    expect(missing.body.error.message).toContain('target.region');
    const differs = await call(url, 'tools/call', params, { headers: { 'mcp-param-target-region': 'us-east', 'mcp-param-shard': '3' } });
    expect([differs.status, differs.body.error.code]).toEqual([400, -32020]);
    const absent = await call(url, 'tools/call', { ...params, arguments: { note: 'n' } }, { headers: { 'mcp-param-shard': '3' } });
    expect([absent.status, absent.body.error.code]).toEqual([400, -32020]);
    const none = await call(url, 'tools/call', { ...params, arguments: { note: 'n' } });
    expect(none.status).toBe(200);

    // Our own client, from the tool as listed: it mirrors the nested values and the server agrees.
    const client = await openSession({ url, clientInfo: { name: 'rules', version: '1' } });
    try {
      const listed = (await client.request('tools/list', {}))['tools'] as { name: string }[];
      const bound = bindListedTool(listed.find((t) => t.name === 'nested')! as never);
      if (!('binding' in bound)) throw new Error(bound.problem);
      expect(bound.binding.headers).toEqual([
        { path: ['target', 'region'], header: 'Target-Region' },
        { path: ['target', 'shard'], header: 'Shard' },
      ]);
      const result = (await callTool(client, bound.binding, { target: { region: 'ap-south', shard: 1 } })) as { content: { text: string }[] };
      expect(result.content[0]!.text).toBe('nested ap-south');
    } finally {
      await client.close();
    }
  });
});
