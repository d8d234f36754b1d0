/**
 * The client's side of elicitation, sampling and roots (issue 14 items 3–5): what its handlers
 * declare, how it answers our server's URL elicitations and tool-enabled sampling in both eras,
 * how it refuses what it did not declare (a raw peer sends those, since real servers check first),
 * and `notifications/roots/list_changed`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { ClientSession, openSession, type ClientHandlers } from '../../src/runtime/client/index.js';
import { declaredCapabilities } from '../../src/runtime/client/input-handlers.js';
import type { ClientTransport } from '../../src/runtime/client/transport.js';
import { SIGN_IN_URL, inputDefinition, inputHandlers } from '../runtime/fixtures/input-server.js';

const formAndUrl = (urls: string[]): ClientHandlers => ({
  elicitation: {
    form: () => ({ action: 'accept', content: { name: 'Ada' } }),
    url: (params) => {
      urls.push(params.url);
      return { action: 'accept' };
    },
  },
});

describe('capabilities declared from the handlers', () => {
  it('declares each part only when the handler says so', () => {
    const answer = () => ({ action: 'accept' as const });
    const sample = () => ({ role: 'assistant' as const, content: { type: 'text', text: '' }, model: 'm' });
    const roots = () => ({ roots: [] });
    expect(declaredCapabilities({})).toEqual({});
    expect(declaredCapabilities({ elicitation: answer, sampling: sample, roots })).toEqual({ elicitation: { form: {} }, sampling: {}, roots: {} });
    expect(declaredCapabilities({ elicitation: { url: answer } })).toEqual({ elicitation: { url: {} } });
    expect(declaredCapabilities({ elicitation: { form: answer, url: answer } })).toEqual({ elicitation: { form: {}, url: {} } });
    expect(declaredCapabilities({ sampling: { createMessage: sample, tools: true } })).toEqual({ sampling: { tools: {} } });
    expect(declaredCapabilities({ sampling: { createMessage: sample, tools: true, context: true } })).toEqual({ sampling: { tools: {}, context: {} } });
    expect(declaredCapabilities({ roots: { list: roots, listChanged: true } })).toEqual({ roots: { listChanged: true } });
  });
});

describe('against our server over HTTP', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    listener = await createServer(inputDefinition(), inputHandlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await listener.close();
  });

  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    it(`${era}: a URL elicitation reaches the url handler; a form-only client is never asked`, async () => {
      const urls: string[] = [];
      const notifications: string[] = [];
      const session = await openSession({ url: listener.url, protocolVersions: [era], handlers: formAndUrl(urls), onNotification: (m) => notifications.push(m) });
      const result = await session.request('tools/call', { name: 'url_sign_in', arguments: {} });
      expect((result['content'] as { text: string }[])[0]!.text).toBe(`url elicitation: accept; completion sent: ${era === '2025-11-25'}`);
      expect(urls).toEqual([SIGN_IN_URL]);
      if (era === '2025-11-25') expect(notifications).toContain('notifications/elicitation/complete');
      await session.close();

      const formOnly = await openSession({ url: listener.url, protocolVersions: [era], handlers: { elicitation: () => ({ action: 'accept' }) } });
      const refused = await formOnly.request('tools/call', { name: 'url_sign_in', arguments: {} });
      expect((refused['content'] as { text: string }[])[0]!.text).toMatch(/did not declare elicitation\.url/);
      await formOnly.close();
    });

    it(`${era}: tool-enabled sampling reaches a client that declared sampling.tools, not one without`, async () => {
      const seen: unknown[] = [];
      const sampling = {
        createMessage: (params: { tools?: unknown }) => {
          seen.push(params.tools);
          return { role: 'assistant' as const, content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Lisbon' } }], model: 'm', stopReason: 'toolUse' };
        },
        tools: true,
      };
      const withTools = await openSession({ url: listener.url, protocolVersions: [era], handlers: { sampling } });
      const result = await withTools.request('tools/call', { name: 'sample_with_tools', arguments: {} });
      expect((result['content'] as { text: string }[])[0]!.text).toBe('sampled: m toolUse');
      expect(seen).toHaveLength(1);
      await withTools.close();

      const plain = await openSession({ url: listener.url, protocolVersions: [era], handlers: { sampling: sampling.createMessage } });
      const refused = await plain.request('tools/call', { name: 'sample_with_tools', arguments: {} });
      expect((refused['content'] as { text: string }[])[0]!.text).toMatch(/did not declare sampling\.tools/);
      expect(seen).toHaveLength(1);
      await plain.close();
    });
  }
});

/** A peer that answers initialize and lets the test send server requests and read the answers. */
class ScriptedServer implements ClientTransport {
  readonly sent: Record<string, any>[] = [];
  private receive: ((message: unknown, text: string) => void) | undefined;
  private waiters: { id: unknown; resolve: (m: Record<string, any>) => void }[] = [];

  async start(receive: (message: unknown, text: string) => void): Promise<void> {
    this.receive = receive;
  }
  async send(text: string): Promise<void> {
    const message = JSON.parse(text) as Record<string, any>;
    this.sent.push(message);
    if (message['method'] === 'initialize') {
      this.deliver({ jsonrpc: '2.0', id: message['id'], result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'scripted', version: '1' } } });
    }
    if (message['method'] === undefined) {
      const waiter = this.waiters.find((w) => w.id === message['id']);
      waiter?.resolve(message);
    }
  }
  async cancel(): Promise<void> {}
  setProtocolVersion(): void {}
  async close(): Promise<void> {}
  deliver(message: unknown): void {
    setImmediate(() => this.receive?.(message, JSON.stringify(message)));
  }
  /** Sends a server request and resolves with the client's response. */
  ask(id: number, method: string, params: unknown): Promise<Record<string, any>> {
    const answered = new Promise<Record<string, any>>((resolve) => this.waiters.push({ id, resolve }));
    this.deliver({ jsonrpc: '2.0', id, method, params });
    return answered;
  }
}

describe('requests the client did not declare (a server that does not check)', () => {
  it('refuses a URL elicitation to form-only handlers and tool-enabled sampling without sampling.tools, with -32602', async () => {
    const peer = new ScriptedServer();
    let called = 0;
    const session = new ClientSession(peer, {
      protocolVersions: ['2025-11-25'],
      handlers: {
        elicitation: () => (called++, { action: 'accept' }),
        sampling: () => (called++, { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }),
      },
    });
    await session.connect();
    expect(peer.sent[0]!['params']['capabilities']).toEqual({ elicitation: { form: {} }, sampling: {} });
    const url = await peer.ask(1, 'elicitation/create', { mode: 'url', url: SIGN_IN_URL, message: 'Sign in', elicitationId: 'e1' });
    expect(url['error']).toEqual({ code: -32602, message: 'Invalid params: this client did not declare elicitation mode "url"' });
    const tools = await peer.ask(2, 'sampling/createMessage', { messages: [], maxTokens: 5, tools: [{ name: 't', inputSchema: { type: 'object' } }] });
    expect(tools['error']['code']).toBe(-32602);
    expect(tools['error']['message']).toMatch(/did not declare sampling\.tools/);
    const choice = await peer.ask(3, 'sampling/createMessage', { messages: [], maxTokens: 5, toolChoice: { mode: 'auto' } });
    expect(choice['error']['code']).toBe(-32602);
    expect(called).toBe(0);
    // What it declared still works.
    const form = await peer.ask(4, 'elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
    expect(form['result']).toEqual({ action: 'accept' });
    await session.close();
  });

  it('declares roots.listChanged and sends notifications/roots/list_changed only when its roots handler says so', async () => {
    const peer = new ScriptedServer();
    const session = new ClientSession(peer, { protocolVersions: ['2025-11-25'], handlers: { roots: { list: () => ({ roots: [{ uri: 'file:///work' }] }), listChanged: true } } });
    await session.connect();
    expect(peer.sent[0]!['params']['capabilities']).toEqual({ roots: { listChanged: true } });
    expect(await session.rootsChanged()).toBe(true);
    expect(peer.sent.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/roots/list_changed', params: {} });
    const list = await peer.ask(1, 'roots/list', {});
    expect(list['result']).toEqual({ roots: [{ uri: 'file:///work' }] });
    await session.close();

    const quiet = new ScriptedServer();
    const plain = new ClientSession(quiet, { protocolVersions: ['2025-11-25'], handlers: { roots: () => ({ roots: [] }) } });
    await plain.connect();
    expect(await plain.rootsChanged()).toBe(false);
    expect(quiet.sent.some((m) => m['method'] === 'notifications/roots/list_changed')).toBe(false);
    await plain.close();
  });
});
