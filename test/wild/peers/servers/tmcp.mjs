// A server written with tmcp (zod adapter): stdio, or Streamable HTTP with --http.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { StdioTransport } from '@tmcp/transport-stdio';
import { McpServer } from 'tmcp';
import { z } from 'zod';

const server = new McpServer({ name: 'wild-tmcp', version: '1.0.0', description: 'The wild suite’s tmcp server' }, { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } });
server.tool(
  { name: 'add', description: 'Adds two numbers.', schema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
  async ({ a, b }) => ({ content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }], structuredContent: { sum: a + b } }),
);

if (process.argv.includes('--http')) {
  const transport = new HttpTransport(server, { path: '/mcp' });
  // Node's request as a web Request, the transport's Response back onto Node's response.
  const http = createServer(async (req, res) => {
    const url = `http://${req.headers.host}${req.url}`;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const request = new Request(url, { method: req.method, headers: req.headers, body: hasBody ? Readable.toWeb(req) : undefined, duplex: 'half', signal: controller.signal });
    const response = (await transport.respond(request)) ?? new Response(null, { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    Readable.fromWeb(response.body).on('error', () => res.destroy()).pipe(res);
  });
  http.listen(0, '127.0.0.1', () => console.error(`listening on http://127.0.0.1:${http.address().port}/mcp`));
} else {
  new StdioTransport(server).listen();
}
