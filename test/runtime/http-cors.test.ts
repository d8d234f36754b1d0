// CORS of the Streamable HTTP endpoint for web pages on another origin (docs/client.md, "A client in a
// web page"): preflights of allowed origins answered before any credentials are asked for, every
// answer to an allowed origin readable (SSE and refusals included), other origins refused with 403.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener, type HttpOptions } from '../../src/runtime/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';
import { listen as listenOn } from '../transports/adapters.js';

const APP = 'https://app.example';
const listeners: HttpListener[] = [];

async function listen(options: HttpOptions = {}): Promise<string> {
  const listener = await listenOn(createServer(buildDefinition(3), handlers, { logger: () => {} }), options);
  listeners.push(listener);
  return listener.url;
}

afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
});

/** The response's headers whose names start with access-control- or are vary, by name. */
function corsHeaders(response: Response): Record<string, string> {
  const found: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name.startsWith('access-control-') || name === 'vary') found[name] = value;
  });
  return found;
}

function preflight(url: string, origin: string, headers: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });
}

const initialize = (protocolVersion: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'page', version: '1' } } });
const postHeaders = (origin: string | undefined, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(origin === undefined ? {} : { origin }),
  ...extra,
});

const ANSWER_HEADERS = {
  'access-control-allow-origin': APP,
  'access-control-expose-headers': 'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version',
  vary: 'Origin',
};

describe('CORS on the Streamable HTTP endpoint', () => {
  it('answers an allowed origin’s preflight with the methods and headers MCP uses, Mcp-Param-* as asked, before authorization', async () => {
    // The hook refuses everyone: a preflight carries no credentials, so it must not be asked.
    const url = await listen({ allowedOrigins: [APP], authorize: () => false });
    const response = await preflight(url, APP, 'content-type,mcp-method,mcp-name,MCP-Param-Region,mcp-protocol-version,authorization,mcp-param-region');
    expect(response.status).toBe(204);
    expect(corsHeaders(response)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'Content-Type, Authorization, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID, mcp-param-region',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Headers',
    });
    expect(await response.text()).toBe('');
  });

  it('refuses a preflight and a request from an origin not allowed with 403, and says nothing of CORS', async () => {
    const url = await listen({ allowedOrigins: [APP] });
    const refused = await preflight(url, 'https://evil.example', 'content-type,mcp-method');
    expect(refused.status).toBe(403);
    expect(corsHeaders(refused)).toEqual({});
    const post = await fetch(url, { method: 'POST', headers: postHeaders('https://evil.example'), body: initialize('2025-11-25') });
    expect(post.status).toBe(403);
    expect(corsHeaders(post)).toEqual({});
    // The loopback default is replaced by the list: a loopback page is another origin here.
    expect((await preflight(url, 'http://127.0.0.1:5173', 'content-type')).status).toBe(403);
  });

  it('allows loopback pages by default, any port', async () => {
    const url = await listen();
    const response = await preflight(url, 'http://127.0.0.1:5173', 'content-type,mcp-session-id');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect((await preflight(url, 'https://app.example', 'content-type')).status).toBe(403);
  });

  it('lets the page read every answer: JSON with Mcp-Session-Id, the SSE stream, a 202, and a 405', async () => {
    const url = await listen({ allowedOrigins: [APP] });
    const init = await fetch(url, { method: 'POST', headers: postHeaders(APP), body: initialize('2025-11-25') });
    expect(init.status).toBe(200);
    expect(corsHeaders(init)).toEqual(ANSWER_HEADERS);
    const session = init.headers.get('mcp-session-id')!;
    const initialized = await fetch(url, {
      method: 'POST',
      headers: postHeaders(APP, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(initialized.status).toBe(202);
    expect(corsHeaders(initialized)).toEqual(ANSWER_HEADERS);
    const controller = new AbortController();
    const stream = await fetch(url, {
      headers: { origin: APP, accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(corsHeaders(stream)).toEqual(ANSWER_HEADERS);
    controller.abort();
    const put = await fetch(url, { method: 'PUT', headers: { origin: APP } });
    expect(put.status).toBe(405);
    expect(corsHeaders(put)).toEqual(ANSWER_HEADERS);
  });

  it('lets the page read a refusal (401) too, and leaves requests without Origin as they were', async () => {
    const url = await listen({ allowedOrigins: [APP], authorize: (req) => req.headers.authorization === 'Bearer ok' });
    const refused = await fetch(url, { method: 'POST', headers: postHeaders(APP), body: initialize('2025-11-25') });
    expect(refused.status).toBe(401);
    expect(corsHeaders(refused)).toEqual(ANSWER_HEADERS);
    const plain = await fetch(url, { method: 'POST', headers: postHeaders(undefined, { authorization: 'Bearer ok' }), body: initialize('2025-11-25') });
    expect(plain.status).toBe(200);
    expect(corsHeaders(plain)).toEqual({});
    // OPTIONS without Origin is no preflight: the endpoint has no such method (after authorization, as before).
    expect((await fetch(url, { method: 'OPTIONS', headers: { authorization: 'Bearer ok' } })).status).toBe(405);
  });
});
