import { describe, expect, it } from 'vitest';
import { RawStdio } from './raw-stdio.js';

const errorCode = (m: Record<string, any>) => m['error']?.['code'] as number | undefined;

describe('stdio framing and JSON-RPC errors', () => {
  it('answers garbage, non-objects and malformed envelopes, and keeps serving', async () => {
    const raw = new RawStdio();
    raw.send('this is not json');
    raw.send('');
    raw.send('   ');
    raw.send('42');
    raw.send('null');
    raw.send('{"jsonrpc":"1.0","id":5,"method":"ping"}');
    raw.send('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}');
    raw.send('{"jsonrpc":"2.0","id":1.5,"method":"ping"}');
    raw.send('{"jsonrpc":"2.0","id":6,"method":7}');
    raw.send('{"jsonrpc":"2.0","id":7}');
    const pong = await raw.call(8, 'ping');
    expect(pong).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    expect(raw.received.slice(0, 9).map((m) => [m['id'], errorCode(m)])).toEqual([
      [null, -32700],
      [null, -32600],
      [null, -32600],
      [5, -32600],
      [null, -32600],
      [null, -32600],
      [6, -32600],
      [7, -32600],
      [8, undefined],
    ]);
  });

  it('answers a request that is not JSON under its id when the id can still be read', async () => {
    const raw = new RawStdio();
    // Python's json.dumps writes NaN; a client cut off mid-line leaves the rest unread.
    raw.send('{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"arguments":{"x":NaN}}}');
    raw.send('{"jsonrpc":"2.0","method":"ping","id":"twelve","params":{');
    // A response of the client's (no method) and an id after the break: no id to borrow.
    raw.send('{"jsonrpc":"2.0","id":13,"result":{x}}');
    raw.send('{"jsonrpc":"2.0","method":"ping","params":{,"id":14}');
    expect((await raw.call(15, 'ping'))['result']).toEqual({});
    expect(raw.received.map((m) => [m['id'], errorCode(m)])).toEqual([
      [11, -32700],
      ['twelve', -32700],
      [null, -32700],
      [null, -32700],
      [15, undefined],
    ]);
  });

  it('reads a first line that starts with a byte order mark', async () => {
    const raw = new RawStdio();
    raw.send('\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}');
    // Only the stream's start: a BOM before a later line leaves that line no JSON.
    raw.send('\uFEFF{"jsonrpc":"2.0","id":2,"method":"ping"}');
    expect((await raw.call(3, 'ping'))['result']).toEqual({});
    // The parse error is written at once, the pings' answers a turn later.
    expect(raw.received.map((m) => [m['id'], errorCode(m)])).toEqual([
      [null, -32700],
      [1, undefined],
      [3, undefined],
    ]);
  });

  it('refuses requests other than ping before initialize', async () => {
    const raw = new RawStdio();
    const early = await raw.call(1, 'tools/list');
    expect(errorCode(early)).toBe(-32600);
    expect(early['error']['message']).toContain('not initialized');
    expect((await raw.call(2, 'ping'))['result']).toEqual({});
    await raw.initialize();
    expect((await raw.call(3, 'tools/list'))['result']['tools']).toHaveLength(3);
    const again = await raw.call(4, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(errorCode(again)).toBe(-32600);
  });

  it('negotiates protocol versions', async () => {
    const old = new RawStdio();
    expect((await old.initialize('2024-11-05'))['result']['protocolVersion']).toBe('2024-11-05');
    const future = new RawStdio();
    expect((await future.initialize('2099-01-01'))['result']).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'runtime-demo', version: '1.0.0' },
      instructions: 'A server for runtime tests',
    });
    const broken = new RawStdio();
    const response = await broken.call(1, 'initialize', { protocolVersion: 20250618, capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(response['error']).toEqual({
      code: -32602,
      message: 'Unsupported protocol version',
      data: { supported: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: 20250618 },
    });
  });

  it('maps unknown methods to -32601 and envelope failures to -32602', async () => {
    const raw = new RawStdio();
    await raw.initialize();
    expect(errorCode(await raw.call(1, 'tools/unknown'))).toBe(-32601);
    expect(errorCode(await raw.call(2, 'sampling/createMessage', {}))).toBe(-32601);
    const noName = await raw.call(3, 'tools/call', { arguments: {} });
    expect(errorCode(noName)).toBe(-32602);
    expect(noName['error']['message']).toBe("Invalid params for tools/call: /params must have required property 'name'");
    expect(errorCode(await raw.call(4, 'logging/setLevel', { level: 'loud' }))).toBe(-32602);
    expect(errorCode(await raw.call(5, 'tools/list', { cursor: 'bm9wZQ' }))).toBe(-32602);
    expect((await raw.call(6, 'ping'))['result']).toEqual({});
  });

  it('refuses batches outside 2025-03-26 and answers them as arrays in 2025-03-26', async () => {
    const modern = new RawStdio();
    await modern.initialize('2025-11-25');
    modern.send('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    const refused = await modern.waitFor((m) => m['error'] !== undefined);
    expect(refused).toMatchObject({ id: null, error: { code: -32600 } });
    expect(refused['error']['message']).toContain('batches are not supported in protocol revision 2025-11-25');

    const batching = new RawStdio();
    await batching.initialize('2025-03-26');
    batching.sendJson([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { steps: 1, ms: 5 } } },
      17,
      { jsonrpc: '2.0', id: 3, method: 'nope' },
    ]);
    const batch = (await batching.waitFor((m) => Array.isArray(m))) as unknown as Record<string, any>[];
    expect(batch.map((m) => [m['id'], errorCode(m)])).toEqual([
      [1, undefined],
      [null, -32600],
      [3, -32601],
      [2, undefined],
    ]);
    batching.send('[]');
    expect(await batching.waitFor((m) => m['id'] === null)).toMatchObject({ error: { code: -32600 } });
    // Only notifications: nothing to answer.
    batching.send('[{"jsonrpc":"2.0","method":"notifications/initialized"}]');
    expect((await batching.call(9, 'ping'))['result']).toEqual({});
    expect(batching.received.filter((m) => Array.isArray(m))).toHaveLength(1);
  });

  it('echoes progress tokens in their JSON type', async () => {
    const raw = new RawStdio();
    await raw.initialize();
    for (const token of ['tok-1', 42]) {
      const response = await raw.call(`p-${token}`, 'tools/call', {
        name: 'slow',
        arguments: { steps: 1, ms: 1 },
        _meta: { progressToken: token },
      });
      expect(response['result']['content'][0]['text']).toBe('done after 1 steps');
      const progress = raw.received.find((m) => m['method'] === 'notifications/progress' && m['params']['progressToken'] === token);
      expect(progress?.['params']).toEqual({ progressToken: token, progress: 1, total: 1, message: 'step 1' });
    }
  });

  it('cancels: the handler sees the abort and no response is sent', async () => {
    const raw = new RawStdio();
    await raw.initialize();
    raw.sendJson({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'slow', arguments: { steps: 1, ms: 30_000 } } });
    await raw.waitFor((m) => m['method'] === 'notifications/message');
    raw.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'test' } });
    let count = '0';
    for (let attempt = 0; attempt < 50 && count === '0'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      count = (await raw.call(`count-${attempt}`, 'tools/call', { name: 'aborted_count', arguments: {} }))['result']['content'][0]['text'];
    }
    expect(Number(count), raw.serverLog.join('\n')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(raw.received.some((m) => m['id'] === 'long')).toBe(false);
  });

  it('routes client responses by kind, even when ids collide with client requests', async () => {
    const raw = new RawStdio();
    await raw.initialize('2025-11-25', { elicitation: {} });
    raw.sendJson({ jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'ask_name', arguments: {} } });
    const elicitation = await raw.waitFor((m) => m['method'] === 'elicitation/create');
    expect(elicitation['params']['message']).toBe('What is your name?');
    // A client request reusing the server's request id is still a request.
    expect(await raw.call(elicitation['id'], 'ping')).toEqual({ jsonrpc: '2.0', id: elicitation['id'], result: {} });
    raw.sendJson({ jsonrpc: '2.0', id: elicitation['id'], result: { action: 'accept', content: { name: 'Bo' } } });
    expect((await raw.response('ask'))['result']).toEqual({ content: [{ type: 'text', text: 'Hello, Bo' }] });
  });

  it('validates elicitation results and passes client errors to the handler', async () => {
    const raw = new RawStdio();
    await raw.initialize('2025-11-25', { elicitation: {} });
    raw.sendJson({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_name', arguments: {} } });
    const first = await raw.waitFor((m) => m['method'] === 'elicitation/create');
    raw.sendJson({ jsonrpc: '2.0', id: first['id'], result: { action: 'maybe' } });
    const invalid = await raw.response(1);
    expect(invalid['result']['isError']).toBe(true);
    expect(invalid['result']['content'][0]['text']).toBe(
      'Invalid elicitation/create result from the client: /action must be equal to one of the allowed values (accept, cancel, decline)',
    );

    raw.sendJson({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_name', arguments: {} } });
    const second = await raw.waitFor((m) => m['method'] === 'elicitation/create' && m['id'] !== first['id']);
    raw.sendJson({ jsonrpc: '2.0', id: second['id'], error: { code: -32603, message: 'user closed the dialog' } });
    expect((await raw.response(2))['result']).toEqual({
      content: [{ type: 'text', text: 'user closed the dialog' }],
      isError: true,
    });
  });

  it('refuses elicitation on revisions that predate it', async () => {
    const raw = new RawStdio();
    await raw.initialize('2025-03-26', { elicitation: {} });
    const response = await raw.call(1, 'tools/call', { name: 'ask_name', arguments: {} });
    expect(response['result']['isError']).toBe(true);
    expect(response['result']['content'][0]['text']).toContain('needs protocol revision 2025-06-18');
  });

  it('reassembles partial lines and handles multi-megabyte messages', async () => {
    const raw = new RawStdio();
    await raw.initialize();
    const text = 'x'.repeat(3 * 1024 * 1024) + 'é"\\';
    const line = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'echo', arguments: { text } } });
    const bytes = Buffer.from(line + '\n');
    for (let offset = 0; offset < bytes.length; offset += 65_537) raw.input.write(bytes.subarray(offset, offset + 65_537));
    const response = await raw.response('big');
    expect(response['result']['content'][0]['text']).toBe(text);
  });

  it('resolves serveStdio after the input ends and in-flight work is answered', async () => {
    const raw = new RawStdio();
    await raw.initialize();
    raw.sendJson({ jsonrpc: '2.0', id: 'last', method: 'tools/call', params: { name: 'slow', arguments: { steps: 2, ms: 20 } } });
    raw.input.end();
    await raw.done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(raw.received.find((m) => m['id'] === 'last')?.['result']['content'][0]['text']).toBe('done after 2 steps');
  });
});
