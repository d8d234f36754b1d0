/**
 * The generated client against the official SDK 1.x server over Streamable HTTP with its strictest
 * transport settings: sessions, DNS-rebinding protection (allowed hosts and origins), and answers
 * as JSON or as SSE. `server/discover` is refused (400, -32000); the fallback `initialize` must
 * then be one the SDK takes, `client --from-url` must succeed, and the generated client must call
 * a tool (issue 38 item 4). Every request's `MCP-Protocol-Version` is recorded.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generate, importClient } from './support.js';

type AddClient = {
  connect(options: object): Promise<{
    server: { protocolVersion: string };
    tools: { add(input: { a: number; b: number }): Promise<{ sum: number }> };
    close(): Promise<void>;
  }>;
};

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** The SDK's own pattern: one transport per session, found by `Mcp-Session-Id`. */
async function strictServer(json: boolean): Promise<{ url: string; seen: { method: string; version: string | undefined }[] }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const seen: { method: string; version: string | undefined }[] = [];
  server = createServer(async (req: IncomingMessage, res) => {
    const id = req.headers['mcp-session-id'];
    let text = '';
    for await (const chunk of req) text += chunk;
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    const method = (body as { method?: string } | undefined)?.method ?? req.method ?? '';
    seen.push({ method, version: req.headers['mcp-protocol-version'] as string | undefined });
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (transport === undefined) {
      const host = `127.0.0.1:${(server!.address() as AddressInfo).port}`;
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        enableDnsRebindingProtection: true,
        allowedHosts: [host],
        allowedOrigins: [`http://${host}`],
        onsessioninitialized: (sessionId) => void transports.set(sessionId, transport!),
      });
      const mcp = new McpServer({ name: 'sdk1-strict', version: '1.0.0' });
      mcp.registerTool(
        'add',
        { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
      );
      await mcp.connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`, seen };
}

describe('the generated client against the SDK 1.x server, strictest settings', () => {
  for (const json of [true, false]) {
    it(`enableJsonResponse ${json}: client --from-url, then a typed call at 2025-11-25`, async () => {
      const { url, seen } = await strictServer(json);
      const { dir, run } = await generate(['--from-url', url]);
      expect(run.code, run.err).toBe(0);
      expect(run.err).toContain('speaks 2025-11-25');
      const { connect } = await importClient<AddClient>(dir);
      const client = await connect({ url });
      try {
        expect(client.server.protocolVersion).toBe('2025-11-25');
        expect(await client.tools.add({ a: 2, b: 3 })).toEqual({ sum: 5 });
      } finally {
        await client.close();
      }
      // server/discover names its revision; initialize names none; what follows names the agreed one.
      expect(seen.find((s) => s.method === 'server/discover')?.version).toBe('2026-07-28');
      expect(seen.filter((s) => s.method === 'initialize').map((s) => s.version)).toEqual([undefined, undefined]);
      expect(seen.find((s) => s.method === 'tools/call')?.version).toBe('2025-11-25');
    });
  }

  it('--protocol-version 2025-11-25 skips server/discover', async () => {
    const { url, seen } = await strictServer(true);
    const { run } = await generate(['--from-url', url, '--protocol-version', '2025-11-25']);
    expect(run.code, run.err).toBe(0);
    expect(seen.map((s) => s.method)).not.toContain('server/discover');
    expect(seen[0]).toEqual({ method: 'initialize', version: undefined });
  });
});
