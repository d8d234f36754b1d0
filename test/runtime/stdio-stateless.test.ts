/**
 * The stateless revision over stdio: no initialize, `_meta` on every request, `resultType` on
 * every result, input-required results instead of server→client requests, and a stateful client on
 * the same kind of connection unaffected.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServer, type ServerDefinition } from '../../src/runtime/index.js';
import { RawStdio, type Message } from './raw-stdio.js';
import { meta, REVISION, SERVER_META, statelessDefinition, statelessHandlers } from './stateless-support.js';

const withStateless = (d: ServerDefinition): ServerDefinition => ({ ...d, protocolVersions: [REVISION, ...d.protocolVersions] });

describe('2026-07-28 over stdio', () => {
  it('serves requests without initialize, with resultType and cache fields', async () => {
    const raw = new RawStdio(100, withStateless);
    const discover = await raw.call(1, 'server/discover', { _meta: meta() });
    expect(discover['result']).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', supportedVersions: [REVISION, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] });
    const list = await raw.call(2, 'tools/list', { _meta: meta() });
    expect(list['result']).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    const echo = await raw.call(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: meta() });
    expect(echo['result']).toEqual({ resultType: 'complete', _meta: SERVER_META, content: [{ type: 'text', text: 'hi' }] });
  });

  it('checks _meta and the version, and refuses the removed methods', async () => {
    const raw = new RawStdio(100, withStateless);
    const noCaps = await raw.call(1, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION } });
    expect(noCaps['error']['code']).toBe(-32602);
    const future = await raw.call(2, 'tools/list', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) });
    expect(future['error']).toMatchObject({ code: -32022, data: { supported: [REVISION], requested: '2099-01-01' } });
    const ping = await raw.call(3, 'ping', { _meta: meta() });
    expect(ping['error']['code']).toBe(-32601);
  });

  it('asks for input with an input-required result, never with a server→client request', async () => {
    const raw = new RawStdio(100, withStateless);
    const first = await raw.call(1, 'tools/call', { name: 'ask_name', arguments: {}, _meta: meta({ elicitation: {} }) });
    expect(first['result']['resultType']).toBe('input_required');
    expect(raw.received.some((m) => m['method'] === 'elicitation/create')).toBe(false);
    const [key] = Object.keys(first['result']['inputRequests']);
    const second = await raw.call(2, 'tools/call', {
      name: 'ask_name',
      arguments: {},
      inputResponses: { [key!]: { action: 'accept', content: { name: 'Lin' } } },
      requestState: first['result']['requestState'],
      _meta: meta({ elicitation: {} }),
    });
    expect(second['result']['content'][0]['text']).toBe('Hello, Lin');
  });

  it('leaves the stateful handshake as it was on a server that also speaks 2026-07-28', async () => {
    const raw = new RawStdio(100, withStateless);
    expect((await raw.initialize('2025-11-25'))['result']['protocolVersion']).toBe('2025-11-25');
    const list = await raw.call(2, 'tools/list');
    expect(list['result']['resultType']).toBeUndefined();
  });
});

describe('subscriptions/listen over stdio', () => {
  it('acknowledges, tags each change with the subscription id, and stops after notifications/cancelled', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const done = createServer(statelessDefinition(), statelessHandlers, { logger: () => {} }).serveStdio({ input, output });
    const received: Message[] = [];
    let partial = '';
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) received.push(JSON.parse(line) as Message);
    });
    const until = async (test: (m: Message) => boolean) => {
      for (let i = 0; i < 200 && !received.some(test); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      return received.find(test);
    };
    const send = (message: unknown) => input.write(JSON.stringify(message) + '\n');
    const tag = { 'io.modelcontextprotocol/subscriptionId': 'sub-1' };

    send({ jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, _meta: meta() } });
    // resourcesListChanged is not offered by this server, so it is not honoured.
    expect(await until((m) => m['method'] === 'notifications/subscriptions/acknowledged')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: tag },
    });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'region', arguments: { region: 'eu' }, _meta: meta() } });
    expect(await until((m) => m['id'] === 2)).toMatchObject({ result: { resultType: 'complete' } });
    expect(await until((m) => m['method'] === 'notifications/tools/list_changed')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: tag },
    });

    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub-1' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'region', arguments: { region: 'us' }, _meta: meta() } });
    expect(await until((m) => m['id'] === 3)).toMatchObject({ result: { resultType: 'complete' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.filter((m) => m['method'] === 'notifications/tools/list_changed')).toHaveLength(1);
    input.end();
    await done;
  });
});

describe('cancellation over stdio, 2026-07-28', () => {
  it("reaches a first request still waiting for the revision's validators to load", async () => {
    // The request and its cancel in one write: the cancel is read while the request waits for the
    // 2026-07-28 table, after the request validators (which the cancel is checked with) have loaded.
    // The 2026-07-28 table loads after the request validators, as a larger module may.
    const slowTable = (): ServerDefinition => {
      const definition = statelessDefinition();
      const load = definition.statelessValidators as () => Promise<Record<string, unknown>>;
      const later = () => new Promise((resolve) => setTimeout(resolve, 100)).then(() => load());
      return { ...definition, statelessValidators: later as NonNullable<ServerDefinition['statelessValidators']> };
    };
    const raw = new RawStdio(100, slowTable, statelessHandlers);
    const call = { jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'slow', arguments: { steps: 1, ms: 30_000 }, _meta: meta() } };
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'changed my mind', _meta: meta() } };
    raw.send(`${JSON.stringify(call)}\n${JSON.stringify(cancel)}`);
    const count = await raw.call('count', 'tools/call', { name: 'aborted_count', arguments: {}, _meta: meta() });
    const deadline = Date.now() + 10_000;
    let aborted = count['result']['structuredContent']?.['count'] ?? Number(count['result']['content'][0]['text']);
    for (let n = 0; aborted < 1 && Date.now() < deadline; n++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const again = await raw.call(`count-${n}`, 'tools/call', { name: 'aborted_count', arguments: {}, _meta: meta() });
      aborted = again['result']['structuredContent']?.['count'] ?? Number(again['result']['content'][0]['text']);
    }
    expect(aborted).toBe(1);
    // A cancelled request is not answered.
    expect(raw.received.some((m) => m['id'] === 'long')).toBe(false);
  });
});
