/**
 * A generated proxy that is itself an OAuth resource server (manifest `auth`): the caller presents a
 * real access token from a real authorization server (oidc-provider, test/auth/support), the server
 * checks it, and the recording upstream shows that the token never arrives (not in Authorization,
 * not in the URL, another header or the body) while the upstream's own configured credential does.
 * The MCP authorization specification forbids passing the caller's token through.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startAuthorizationServer, type TestAuthorizationServer } from '../auth/support/oidc-provider.js';
import { listenProtected } from '../auth/support/protected-server.js';
import { loadModel, plan, repoRoot, write } from '../server/support.js';
import { json, startRecordingUpstream, type RecordedRequest, type RecordingUpstream } from './recording-upstream.js';

const manifest = join(import.meta.dirname, 'fixtures', 'protected.yaml');
const ENV = { PROTECTED_UPSTREAM_TOKEN: 'upstream-own-secret', PROTECTED_UPSTREAM_KEY: 'upstream-own-key' };

let as: TestAuthorizationServer;
let upstream: RecordingUpstream;
let dir: string;
let listener: { url: string; close(): Promise<void> };
/** A token the authorization server issued for this server, with the scope its tools need. */
let callerToken: string;

beforeAll(async () => {
  as = await startAuthorizationServer();
  upstream = await startRecordingUpstream();
  Object.assign(process.env, ENV, { PROTECTED_UPSTREAM_HOST: upstream.host });
  // Under node_modules/.cache, where the auth runtime's `jose` resolves from the repository.
  dir = join(repoRoot, 'node_modules', '.cache', 'mcp-gen-proxy-auth-tests', `${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  await write(dir, await plan(await loadModel(manifest)), manifest);
  let resource: string;
  ({ listener, resource } = await listenProtected(dir, as));
  callerToken = await as.tokenByClientCredentials(resource, 'weather:read');
}, 60_000);

afterAll(async () => {
  await listener?.close();
  await upstream?.close();
  await as?.close();
  for (const name of [...Object.keys(ENV), 'PROTECTED_UPSTREAM_HOST']) delete process.env[name];
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.answer = () => json({ ok: true });
});

async function callWith(token: string, name: string, args: Record<string, unknown>): Promise<{ isError?: boolean }> {
  const client = new Client({ name: 'protected-proxy-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    return (await client.callTool({ name, arguments: args })) as { isError?: boolean };
  } finally {
    await client.close();
  }
}

/** Everything the upstream received, as one text: method, URL with its query, every header, body. */
const everything = (request: RecordedRequest): string => JSON.stringify(request);

/** The token and each of its three parts (a part alone would still leak the signature or claims). */
const pieces = (token: string): string[] => [token, ...token.split('.')];

describe('a proxy with auth on never forwards the caller\'s token', () => {
  test('the server checks the caller\'s token: without one, nothing reaches the upstream', async () => {
    const client = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(listener.url)))).rejects.toThrow(/401|Unauthorized/i);
    expect(upstream.requests).toEqual([]);
    expect(callerToken.split('.')).toHaveLength(3);
  });

  test('bearer upstream: Authorization carries the upstream\'s token, the caller\'s appears nowhere', async () => {
    const result = await callWith(callerToken, 'get_item', { id: 'a1', trace: 't-1' });
    expect(result.isError).toBeFalsy();
    const request = upstream.last();
    expect([request.method, request.url, request.headers['authorization'], request.headers['x-trace']]).toEqual(['GET', '/api/items/a1', 'Bearer upstream-own-secret', 't-1']);
    for (const piece of pieces(callerToken)) expect(everything(request)).not.toContain(piece);
  });

  test('API key upstream: the key goes in the query, no Authorization header at all, the caller\'s token nowhere', async () => {
    const result = await callWith(callerToken, 'create_item', { body: { name: 'n' } });
    expect(result.isError).toBeFalsy();
    const request = upstream.last();
    expect([request.method, request.url, request.body, request.headers['authorization']]).toEqual(['POST', '/api/items?api_key=upstream-own-key', '{"name":"n"}', undefined]);
    for (const piece of pieces(callerToken)) expect(everything(request)).not.toContain(piece);
  });

  test('with the upstream credential unset, the request goes without one: the caller\'s token does not stand in', async () => {
    delete process.env['PROTECTED_UPSTREAM_TOKEN'];
    try {
      await callWith(callerToken, 'get_item', { id: 'a2' });
      const request = upstream.last();
      expect([request.url, request.headers['authorization']]).toEqual(['/api/items/a2', undefined]);
      for (const piece of pieces(callerToken)) expect(everything(request)).not.toContain(piece);
    } finally {
      process.env['PROTECTED_UPSTREAM_TOKEN'] = ENV.PROTECTED_UPSTREAM_TOKEN;
    }
  });
});
