/**
 * A request refused for its size (`limits.maxMessageBytes`) or depth (`limits.maxDepth`) is
 * answered under its own id whenever that id can be read from the bytes the server holds, so the
 * caller is not left waiting for an answer that would otherwise come with `id: null`. Over stdio
 * (whole lines, lines arriving in pieces, the last line of the input) and over HTTP (both eras),
 * at the default limits; and `null` when the id cannot be told.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { scanRequestId } from '../../src/runtime/protocol/json-scan.js';
import { RawStdio, type Message } from './raw-stdio.js';
import { meta, REVISION, standardHeaders, statelessDefinition, statelessHandlers } from './stateless-support.js';
import { listen } from '../transports/adapters.js';

const MiB = 1024 * 1024;
const TOO_LARGE = 'Invalid Request: the message is larger than 4194304 bytes';
const TOO_DEEP = 'Invalid Request: the message nests deeper than 64 levels';

/** A tools/call of 5 MiB (the default limit is 4 MiB) with `id` placed first. */
function largeRequest(id: string | number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(5 * MiB) }, _meta: meta() } });
}

/** A tools/call whose arguments nest 70 levels (the default limit is 64). */
function deepRequest(id: string | number): string {
  const deep = '['.repeat(70) + ']'.repeat(70);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","deep":${deep}}}}`;
}

/** `id` after a huge member: `before` MiB of padding ahead of it, `after` MiB behind it. */
function idAfterPadding(id: string | number, before: number, after: number): string {
  return `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${'y'.repeat(before * MiB)}"}},"id":${JSON.stringify(id)},"tail":"${'z'.repeat(after * MiB)}"}`;
}

describe('scanRequestId', () => {
  it('reads string and integer ids of requests, in any member order, past nested values', () => {
    expect(scanRequestId('{"jsonrpc":"2.0","id":7,"method":"x"}', 1000)).toBe('7');
    expect(scanRequestId(' { "method" : "x" , "id" : "abc" } ', 1000)).toBe('"abc"');
    expect(scanRequestId('{"params":{"a":[1,{"id":9,"s":"}\\"]{"}],"b":"\\\\"},"method":"m","id":-12}', 1000)).toBe('-12');
    expect(scanRequestId('{"\\u0069d":"esc\\u00e9","method":"m"}', 1000)).toBe('"escé"');
    expect(scanRequestId('{"jsonrpc":"2.0","id":1,"method":"m","params":{"cut', 1000)).toBe('1');
  });

  it('gives up on anything it cannot be sure of', () => {
    expect(scanRequestId('{"id":7,"result":{}}', 1000)).toBeUndefined(); // a response: its id is the server's
    expect(scanRequestId('{"error":{},"id":7,"method":"m"}', 1000)).toBeUndefined();
    expect(scanRequestId('{"id":7,"params":{"cut', 1000)).toBeUndefined(); // no method in reach
    expect(scanRequestId('{"id":7}', 1000)).toBeUndefined();
    expect(scanRequestId('{"id":1.5,"method":"m"}', 1000)).toBeUndefined();
    expect(scanRequestId('{"id":9007199254740993,"method":"m"}', 1000)).toBeUndefined();
    expect(scanRequestId('{"id":null,"method":"m"}', 1000)).toBeUndefined();
    expect(scanRequestId('{"id":{"a":1},"method":"m"}', 1000)).toBeUndefined();
    expect(scanRequestId('[{"id":7,"method":"m"}]', 1000)).toBeUndefined();
    expect(scanRequestId('{"id" 7,"method":"m"}', 1000)).toBeUndefined();
    expect(scanRequestId('{"method":"m","pad":"' + 'x'.repeat(100) + '","id":7}', 50)).toBeUndefined(); // beyond the limit
    expect(scanRequestId('', 1000)).toBeUndefined();
  });

  it('walks a million nested brackets without recursion', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(scanRequestId(`{"method":"m","params":${deep},"id":"after"}`, 10 * MiB)).toBe('"after"');
  });
});

describe('refusals keep their id over stdio', () => {
  const sendInPieces = (raw: RawStdio, line: string): void => {
    for (let i = 0; i < line.length; i += 64 * 1024) raw.input.write(line.slice(i, i + 64 * 1024));
    raw.input.write('\n');
  };
  const refusal = (raw: RawStdio, id: unknown): Promise<Message> => raw.waitFor((m) => m['error'] !== undefined && m['id'] === id);

  it('answers a 5 MiB request with -32600 under its id, whole or in pieces, and keeps serving', async () => {
    const raw = new RawStdio(100);
    await raw.initialize();
    raw.send(largeRequest(7));
    expect(await refusal(raw, 7)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: TOO_LARGE } });
    sendInPieces(raw, largeRequest('abc'));
    expect(await refusal(raw, 'abc')).toEqual({ jsonrpc: '2.0', id: 'abc', error: { code: -32600, message: TOO_LARGE } });
    expect((await raw.call(8, 'tools/call', { name: 'echo', arguments: { text: 'still here' } }))['result']['content'][0]['text']).toBe('still here');
  });

  it('answers a 70-deep request with -32600 under its id', async () => {
    const raw = new RawStdio(100);
    await raw.initialize();
    raw.send(deepRequest(7));
    expect(await refusal(raw, 7)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: TOO_DEEP } });
    raw.send(deepRequest('abc'));
    expect(await refusal(raw, 'abc')).toEqual({ jsonrpc: '2.0', id: 'abc', error: { code: -32600, message: TOO_DEEP } });
    expect((await raw.call(8, 'tools/call', { name: 'echo', arguments: { text: 'ok' } }))['result']['content'][0]['text']).toBe('ok');
  });

  it('finds an id after a huge member within the bytes it holds, and answers null beyond them', async () => {
    const raw = new RawStdio(100);
    await raw.initialize();
    sendInPieces(raw, idAfterPadding(21, 2, 3));
    expect((await refusal(raw, 21))['error']['code']).toBe(-32600);
    sendInPieces(raw, idAfterPadding(22, 5, 0));
    expect((await refusal(raw, null))['error']).toEqual({ code: -32600, message: TOO_LARGE });
    expect(raw.received.some((m) => m['id'] === 22)).toBe(false);
    expect((await raw.call(23, 'ping'))['result']).toEqual({});
  });

  it('answers an oversized last line without a newline under its id when the input ends', async () => {
    const raw = new RawStdio(100);
    await raw.initialize();
    const line = largeRequest(31);
    for (let i = 0; i < line.length; i += 64 * 1024) raw.input.write(line.slice(i, i + 64 * 1024));
    raw.input.end();
    await raw.done;
    expect(raw.received.find((m) => m['id'] === 31)).toEqual({ jsonrpc: '2.0', id: 31, error: { code: -32600, message: TOO_LARGE } });
  });

  it('answers a 2026-07-28 request refused for its size under its id', async () => {
    const raw = new RawStdio(100, (d) => ({ ...d, protocolVersions: [REVISION, ...d.protocolVersions] }));
    raw.send(largeRequest('modern'));
    expect((await refusal(raw, 'modern'))['error']['code']).toBe(-32600);
  });
});

describe('refusals keep their id over HTTP', () => {
  let listener: HttpListener;
  let url: string;
  beforeAll(async () => {
    listener = await listen(createServer(statelessDefinition(), statelessHandlers, { logger: () => {} }), {});
    url = listener.url;
  });
  afterAll(() => listener.close());

  const post = async (body: string, headers: Record<string, string>): Promise<{ status: number; json: Message }> => {
    const response = await fetch(url, { method: 'POST', headers, body });
    return { status: response.status, json: (await response.json()) as Message };
  };
  const statelessHeaders = standardHeaders('tools/call', { name: 'echo' });

  it('answers a 5 MiB request with 413 and -32600 under its id, then serves the next', async () => {
    for (const id of [7, 'abc']) {
      const answer = await post(largeRequest(id), statelessHeaders);
      expect(answer.status).toBe(413);
      expect(answer.json).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Payload Too Large: the limit is 4194304 bytes' } });
    }
    const next = await post(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { text: 'ok' }, _meta: meta() } }), statelessHeaders);
    expect([next.status, next.json['result']['content'][0]['text']]).toEqual([200, 'ok']);
  });

  it('answers a 70-deep request with 400 and -32600 under its id, in both eras', async () => {
    for (const id of [7, 'abc']) {
      const answer = await post(deepRequest(id), statelessHeaders);
      expect([answer.status, answer.json]).toEqual([400, { jsonrpc: '2.0', id, error: { code: -32600, message: TOO_DEEP } }]);
    }
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }),
    });
    await init.text();
    const session = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    const deep = await post(deepRequest(9), session);
    expect([deep.status, deep.json['id'], deep.json['error']['code']]).toEqual([400, 9, -32600]);
    const large = await post(largeRequest(10), session);
    expect([large.status, large.json['id'], large.json['error']['code']]).toEqual([413, 10, -32600]);
  });

  it('finds an id after a huge member within the first 4 MiB, and answers null beyond them', async () => {
    const found = await post(idAfterPadding(21, 2, 3), statelessHeaders);
    expect([found.status, found.json['id']]).toEqual([413, 21]);
    const lost = await post(idAfterPadding(22, 5, 0), statelessHeaders);
    expect([lost.status, lost.json['id']]).toEqual([413, null]);
  });
});
