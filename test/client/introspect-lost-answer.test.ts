/**
 * Introspecting a server whose answer stream ends without the answer (and cannot be resumed):
 * `mcp-gen client --from-url` fails at once with a clear error. Introspection wraps the transport
 * to see each message's JSON text; the wrapper once dropped the transport's "answer lost" callback,
 * so the request waited forever and the CLI exited 13 (an unsettled await) with nothing printed.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generate } from './support.js';

let server: Server;
let url = '';

beforeAll(async () => {
  // Every POST gets an SSE stream that ends with no event; there is no GET stream to resume from.
  server = createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('fails with a clear error instead of waiting forever', async () => {
  const { run } = await generate(['--from-url', url]);
  expect(run.code).toBe(3);
  expect(run.err).toMatch(/closed before the answer/);
}, 30_000);
