// A server written with the official SDK 2.x (@modelcontextprotocol/server + @modelcontextprotocol/node,
// the project's own devDependencies), serving both eras.
//   node sdk2.mjs          stdio
//   node sdk2.mjs --http   createMcpHandler on a free loopback port; prints "listening on <url>"
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function wildServer() {
  const mcp = new McpServer({ name: 'wild-sdk2', version: '1.0.0' });
  mcp.registerTool('add', { description: 'Adds two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }],
    structuredContent: { sum: a + b },
  }));
  return mcp;
}

if (process.argv.includes('--http')) {
  const server = createServer(toNodeHandler(createMcpHandler(wildServer)));
  server.listen(0, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`));
} else {
  serveStdio(wildServer);
}
