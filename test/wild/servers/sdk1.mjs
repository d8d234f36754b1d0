// A server written with the official SDK 1.x (@modelcontextprotocol/sdk, the project's own
// devDependency) under its strictest transport settings: over HTTP, sessions, DNS-rebinding
// protection with the one allowed Host and no allowed Origin, SSE answers (no JSON shortcut).
//   node sdk1.mjs          stdio
//   node sdk1.mjs --http   Streamable HTTP on a free loopback port; prints "listening on <url>"
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

function wildServer() {
  const mcp = new McpServer({ name: 'wild-sdk1', version: '1.0.0' });
  mcp.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }],
    structuredContent: { sum: a + b },
  }));
  return mcp;
}

if (process.argv.includes('--http')) {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      if (id !== undefined || req.method !== 'POST') return void res.writeHead(id === undefined ? 400 : 404).end();
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: false,
        enableDnsRebindingProtection: true,
        allowedHosts: [`127.0.0.1:${http.address().port}`],
        allowedOrigins: [],
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await wildServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`));
} else {
  await wildServer().connect(new StdioServerTransport());
}
