/**
 * URL-mode elicitation and tool-enabled sampling, held to what the client declared (issue 14 items
 * 3 and 4), over raw stdio in both eras: what is sent, what is refused before anything is sent,
 * `notifications/elicitation/complete`, and the URL-elicitation-required error (-32042, or an
 * input-required result in 2026-07-28).
 */
import { describe, expect, it } from 'vitest';
import { RawStdio, type Message } from './raw-stdio.js';
import { SIGN_IN_URL, inputDefinition, inputHandlers, statelessMeta } from './fixtures/input-server.js';

function server(): RawStdio {
  return new RawStdio(100, () => inputDefinition(), inputHandlers);
}

async function stateful(capabilities: Message, revision = '2025-11-25'): Promise<RawStdio> {
  const stdio = server();
  const init = await stdio.initialize(revision, capabilities);
  expect(init['result']['protocolVersion']).toBe(revision);
  return stdio;
}

function callTool(stdio: RawStdio, id: number, name: string, args: Message = {}): void {
  stdio.sendJson({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

function toolText(response: Message): string {
  return response['result']['content'][0]['text'];
}

const sentRequests = (stdio: RawStdio, method: string): Message[] => stdio.received.filter((m) => m['method'] === method && m['id'] !== undefined);

async function finish(stdio: RawStdio): Promise<void> {
  stdio.input.end();
  await stdio.done;
}

describe('URL-mode elicitation, 2025-11-25', () => {
  it('is sent to a client that declared elicitation.url, and its completion notification follows', async () => {
    const stdio = await stateful({ elicitation: { form: {}, url: {} } });
    callTool(stdio, 1, 'url_sign_in');
    const request = await stdio.waitFor((m) => m['method'] === 'elicitation/create');
    expect(request['params']).toEqual({ mode: 'url', url: SIGN_IN_URL, message: 'Sign in to Example', elicitationId: 'sign-in-1' });
    stdio.sendJson({ jsonrpc: '2.0', id: request['id'], result: { action: 'accept' } });
    const response = await stdio.response(1);
    expect(toolText(response)).toBe('url elicitation: accept; completion sent: true');
    const complete = stdio.received.findIndex((m) => m['method'] === 'notifications/elicitation/complete');
    expect(stdio.received[complete]).toEqual({ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'sign-in-1' } });
    expect(complete).toBeLessThan(stdio.received.indexOf(response));
    await finish(stdio);
  });

  it('gets an elicitationId the handler did not give (the 2025-11-25 schema requires one)', async () => {
    const stdio = await stateful({ elicitation: { url: {} } });
    callTool(stdio, 1, 'url_sign_in_no_id');
    const request = await stdio.waitFor((m) => m['method'] === 'elicitation/create');
    expect(request['params']['elicitationId']).toMatch(/^[0-9a-f-]{36}$/);
    stdio.sendJson({ jsonrpc: '2.0', id: request['id'], result: { action: 'decline' } });
    expect(toolText(await stdio.response(1))).toBe('url elicitation: decline');
    await finish(stdio);
  });

  it('is refused to the handler, nothing sent, for a form-only client (a bare elicitation: {} is form only)', async () => {
    for (const capabilities of [{ elicitation: {} }, { elicitation: { form: {} } }]) {
      const stdio = await stateful(capabilities);
      callTool(stdio, 1, 'url_sign_in');
      const response = await stdio.response(1);
      expect(response['result']['isError']).toBe(true);
      expect(toolText(response)).toBe('ClientCapabilityError: elicitation/create: the client did not declare elicitation.url (it declared form)');
      expect(sentRequests(stdio, 'elicitation/create')).toEqual([]);
      // The server keeps serving, and form mode still works for this client.
      callTool(stdio, 2, 'form_name');
      const form = await stdio.waitFor((m) => m['method'] === 'elicitation/create');
      expect(form['params']['mode']).toBeUndefined();
      stdio.sendJson({ jsonrpc: '2.0', id: form['id'], result: { action: 'accept', content: { name: 'Ada' } } });
      expect(toolText(await stdio.response(2))).toBe('form: accept Ada');
      await finish(stdio);
    }
  });

  it('refuses form mode to a url-only client, and URL mode before 2025-11-25', async () => {
    const urlOnly = await stateful({ elicitation: { url: {} } });
    callTool(urlOnly, 1, 'form_name');
    expect(toolText(await urlOnly.response(1))).toBe('ClientCapabilityError: elicitation/create: the client did not declare elicitation.form (it declared url)');
    await finish(urlOnly);

    const older = await stateful({ elicitation: { form: {}, url: {} } }, '2025-06-18');
    callTool(older, 1, 'url_sign_in');
    expect(toolText(await older.response(1))).toBe(
      'ClientCapabilityError: elicitation/create: URL mode needs protocol revision 2025-11-25 or later (negotiated 2025-06-18)',
    );
    expect(sentRequests(older, 'elicitation/create')).toEqual([]);
    await finish(older);
  });

  it('UrlElicitationRequiredError is answered with -32042 and the elicitations; older revisions get a tool error', async () => {
    const stdio = await stateful({ elicitation: { form: {}, url: {} } });
    callTool(stdio, 1, 'must_sign_in');
    expect((await stdio.response(1))['error']).toEqual({
      code: -32042,
      message: 'This request requires a URL elicitation to be completed first',
      data: { elicitations: [{ mode: 'url', elicitationId: 'sign-in-2', url: SIGN_IN_URL, message: 'Sign in to Example first' }] },
    });
    callTool(stdio, 2, 'form_name');
    expect((await stdio.waitFor((m) => m['method'] === 'elicitation/create'))['params']['message']).toBe('Your name?');
    await finish(stdio);

    const older = await stateful({ elicitation: {} }, '2025-06-18');
    callTool(older, 1, 'must_sign_in');
    const response = await older.response(1);
    expect(response['result']).toEqual({ isError: true, content: [{ type: 'text', text: 'This request requires a URL elicitation to be completed first' }] });
    await finish(older);
  });
});

describe('tool-enabled sampling, 2025-11-25', () => {
  it('is refused to the handler, nothing sent, for a client without sampling.tools', async () => {
    const stdio = await stateful({ sampling: {} });
    callTool(stdio, 1, 'sample_with_tools');
    expect(toolText(await stdio.response(1))).toBe(
      'ClientCapabilityError: sampling/createMessage: the client did not declare sampling.tools, so it cannot be sent tools or toolChoice',
    );
    callTool(stdio, 2, 'sample_this_server');
    expect(toolText(await stdio.response(2))).toMatch(/^ClientCapabilityError: sampling\/createMessage: the client did not declare sampling.context/);
    expect(sentRequests(stdio, 'sampling/createMessage')).toEqual([]);
    // Plain sampling still goes out.
    callTool(stdio, 3, 'sample_plain');
    const plain = await stdio.waitFor((m) => m['method'] === 'sampling/createMessage');
    stdio.sendJson({ jsonrpc: '2.0', id: plain['id'], result: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm1' } });
    expect(toolText(await stdio.response(3))).toBe('sampled: m1');
    await finish(stdio);
  });

  it('is sent with its tools and toolChoice to a client that declared sampling.tools', async () => {
    const stdio = await stateful({ sampling: { tools: {} } });
    callTool(stdio, 1, 'sample_with_tools');
    const request = await stdio.waitFor((m) => m['method'] === 'sampling/createMessage');
    expect(request['params']['tools']).toEqual([{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }]);
    expect(request['params']['toolChoice']).toEqual({ mode: 'auto' });
    stdio.sendJson({
      jsonrpc: '2.0',
      id: request['id'],
      result: { role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Lisbon' } }], model: 'm2', stopReason: 'toolUse' },
    });
    expect(toolText(await stdio.response(1))).toBe('sampled: m2 toolUse');
    await finish(stdio);
  });

  it('is refused before 2025-11-25 even to a client that declares sampling.tools', async () => {
    const stdio = await stateful({ sampling: { tools: {} } }, '2025-06-18');
    callTool(stdio, 1, 'sample_with_tools');
    expect(toolText(await stdio.response(1))).toBe(
      'ClientCapabilityError: sampling/createMessage: tools need protocol revision 2025-11-25 or later (negotiated 2025-06-18)',
    );
    await finish(stdio);
  });
});

describe('2026-07-28 (input-required results)', () => {
  function statelessCall(stdio: RawStdio, id: number, name: string, capabilities: Message, extra: Message = {}): Promise<Message> {
    return stdio.call(id, 'tools/call', { name, arguments: extra['arguments'] ?? {}, ...extra, _meta: statelessMeta(capabilities) });
  }

  it('asks for a URL elicitation without elicitationId, and resolves it from the retry', async () => {
    const stdio = server();
    const caps = { elicitation: { url: {} } };
    const first = await statelessCall(stdio, 1, 'url_sign_in', caps);
    expect(first['result']['resultType']).toBe('input_required');
    expect(first['result']['inputRequests']).toEqual({
      'elicitation-1': { method: 'elicitation/create', params: { mode: 'url', url: SIGN_IN_URL, message: 'Sign in to Example' } },
    });
    const retry = await statelessCall(stdio, 2, 'url_sign_in', caps, {
      inputResponses: { 'elicitation-1': { action: 'accept' } },
      requestState: first['result']['requestState'],
    });
    expect(retry['result']['resultType']).toBe('complete');
    // 2026-07-28 has no notifications/elicitation/complete.
    expect(toolText(retry)).toBe('url elicitation: accept; completion sent: false');
    await finish(stdio);
  });

  it('refuses URL mode to a form-only client: the handler sees the error, an escaped one is -32021', async () => {
    const stdio = server();
    const caught = await statelessCall(stdio, 1, 'url_sign_in', { elicitation: {} });
    expect(toolText(caught)).toBe('ClientCapabilityError: elicitation/create: the client did not declare elicitation.url (it declared form)');
    const escaped = await statelessCall(stdio, 2, 'url_sign_in', { elicitation: {} }, { arguments: { escape: true } });
    expect(escaped['error']['code']).toBe(-32021);
    expect(escaped['error']['data']).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    await finish(stdio);
  });

  it('turns UrlElicitationRequiredError into an input-required URL elicitation, asked again until the handler stops throwing', async () => {
    const stdio = server();
    const caps = { elicitation: { url: {} } };
    const first = await statelessCall(stdio, 1, 'must_sign_in', caps);
    const asked = { 'elicitation-url-sign-in-2': { method: 'elicitation/create', params: { mode: 'url', url: SIGN_IN_URL, message: 'Sign in to Example first' } } };
    expect(first['result']['resultType']).toBe('input_required');
    expect(first['result']['inputRequests']).toEqual(asked);
    const again = await statelessCall(stdio, 2, 'must_sign_in', caps, {
      inputResponses: { 'elicitation-url-sign-in-2': { action: 'accept' } },
      requestState: first['result']['requestState'],
    });
    expect(again['result']['inputRequests']).toEqual(asked);
    const formOnly = await statelessCall(stdio, 3, 'must_sign_in', { elicitation: {} });
    expect(formOnly['error']['code']).toBe(-32021);
    expect(formOnly['error']['data']).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    await finish(stdio);
  });

  it('refuses tool-enabled sampling to a client without sampling.tools, and asks one that has it', async () => {
    const stdio = server();
    const refused = await statelessCall(stdio, 1, 'sample_with_tools', { sampling: {} });
    expect(toolText(refused)).toBe('ClientCapabilityError: sampling/createMessage: the client did not declare sampling.tools, so it cannot be sent tools or toolChoice');
    const asked = await statelessCall(stdio, 2, 'sample_with_tools', { sampling: { tools: {} } });
    expect(asked['result']['inputRequests']['sampling-1']['params']['tools'][0]['name']).toBe('get_weather');
    await finish(stdio);
  });
});
