// A server written with mcp-use's MCPServer (Streamable HTTP only).
import { MCPServer } from 'mcp-use';
import { z } from 'zod';

const server = new MCPServer({ name: 'wild-mcp-use', version: '1.0.0' });
server.tool(
  { name: 'add', description: 'Adds two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
  async ({ a, b }) => ({ content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }], structuredContent: { sum: a + b } }),
);
const { url } = await server.listen(0, { host: '127.0.0.1' });
// It names the host localhost; the suite keeps to 127.0.0.1.
console.error(`listening on ${url.replace('//localhost:', '//127.0.0.1:')}`);
