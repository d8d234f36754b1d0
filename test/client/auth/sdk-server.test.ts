/**
 * Our client signing in to a server protected by the official SDK 1.x: its authorization server
 * router (`mcpAuthRouter`: metadata, dynamic registration, authorize, token, PKCE checked), its
 * `requireBearerAuth` on the MCP endpoint, and its stateless Streamable HTTP server. The provider
 * behind the router is the SDK's in-memory demo, which approves at once (the "browser" here just
 * follows the redirect) and checks the RFC 8707 resource strictly.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callToolFull, openSession } from '../../../src/runtime/client/index.js';

let http: Server;
let mcpUrl: URL;
const seen: { path: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  const app = express();
  http = createServer(app);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  // The SDK accepts plain http for a localhost issuer only.
  const origin = `http://localhost:${(http.address() as AddressInfo).port}`;
  mcpUrl = new URL(`${origin}/mcp`);
  const provider = new DemoInMemoryAuthProvider((resource) => resource?.href === mcpUrl.href);
  app.use((req: IncomingMessage, _res: ServerResponse, next: () => void) => {
    seen.push({ path: new URL(req.url ?? '/', origin).pathname, authorization: req.headers.authorization });
    next();
  });
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.post('/mcp', bearer, express.json(), async (req: IncomingMessage & { body: unknown }, res: ServerResponse) => {
    const server = new McpServer({ name: 'sdk-protected', version: '1.0.0' });
    server.registerTool('whoami', { inputSchema: { greeting: z.string() } }, (args, extra) => ({
      content: [{ type: 'text', text: `${args.greeting}, ${extra.authInfo?.clientId ?? 'nobody'}` }],
    }));
    const transport = new StreamableHTTPServerTransport({}) // no session id generator: stateless;
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe('our client and an SDK 1.x protected server', () => {
  it('discovers, registers, signs in with PKCE and resource, and calls a tool as the registered client', async () => {
    const follow = async (url: URL): Promise<string> => {
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (location === null) throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
      return location;
    };
    const session = await openSession({
      url: mcpUrl,
      auth: { redirectUrl: 'http://localhost:9/callback', openAuthorizationUrl: follow, clientName: 'mcp-gen test' },
    });
    expect(session.server.protocolVersion).not.toBe('2026-07-28');
    const result = await callToolFull(session, { name: 'whoami' }, { greeting: 'hello' });
    await session.close();
    const text = (result['content'] as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(/^hello, [0-9a-f-]{36}$/); // the client id the SDK's registration issued
    expect(seen.map((s) => s.path)).toEqual(expect.arrayContaining(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/register', '/authorize', '/token']));
    expect(seen.filter((s) => s.path === '/mcp' && s.authorization?.startsWith('Bearer ')).length).toBeGreaterThan(1);
  });
});
