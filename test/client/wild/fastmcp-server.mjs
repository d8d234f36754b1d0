// A fastmcp server over Streamable HTTP on 127.0.0.1 (the port from argv[2], 0 for any): one tool
// with an output schema of its own and one without. Prints `listening <port>` once it serves.
import { createServer } from 'node:net';
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const port = Number(process.argv[2] ?? 0) || (await freePort());
const server = new FastMCP({ name: 'wild-fastmcp', version: '1.2.3' });
server.addTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => `${a + b}`,
});
server.addTool({
  name: 'shout',
  description: 'Upper-cases a text',
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }) => text.toUpperCase(),
});
await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp' } });
console.log(`listening ${port}`);
