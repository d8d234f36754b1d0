// A server written with fastmcp: stdio, or Streamable HTTP with --http (printing `listening on <url>`).
import { FastMCP } from 'fastmcp';
import { createServer } from 'node:net';
import { z } from 'zod';

const server = new FastMCP({ name: 'wild-fastmcp', version: '1.0.0' });
server.addTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => JSON.stringify({ sum: a + b }),
});

if (process.argv.includes('--http')) {
  // fastmcp takes a fixed port: ask the system for a free one first.
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp' } });
  console.error(`listening on http://127.0.0.1:${port}/mcp`);
} else {
  await server.start({ transportType: 'stdio' });
}
