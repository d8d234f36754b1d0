// The official SDK 2.x (@modelcontextprotocol/server 2.4.0 with @modelcontextprotocol/node) over
// Streamable HTTP, for the stateless 2026-07-28 revision: `createMcpHandler` with a fresh McpServer
// per request, as its documentation sets it up. The same two tools as the 1.x server, in zod.
//   node bench/sdk2/http-server.mjs --port 0      prints "listening on <url>" on stderr
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { z } from 'zod';
import { getWeather, search } from '../lib/handlers.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, stateless: { type: 'boolean', default: true } } });

const structured = (structuredContent) => ({ content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent });

function createWorkloadServer() {
  const server = new McpServer({ name: 'bench-sdk2', version: '1.0.0' });
  server.registerTool(
    'get_weather',
    {
      description: 'Get current weather for a location',
      inputSchema: z.object({
        location: z.string().describe('City name or zip code'),
        units: z.enum(['celsius', 'fahrenheit']).optional().describe('Temperature units'),
      }),
      outputSchema: z.object({ temperature: z.number(), conditions: z.string(), humidity: z.number() }),
    },
    async (args) => structured(getWeather(args)),
  );
  server.registerTool(
    'search',
    {
      description: 'Search the document index; returns up to 50 structured results',
      inputSchema: z.object({
        query: z.string().describe('Search query'),
        limit: z.number().int().min(1).max(50).optional().describe('Maximum number of results'),
      }),
      outputSchema: z.object({
        query: z.string(),
        total: z.number().int(),
        results: z.array(
          z.object({
            docId: z.string(),
            title: z.string(),
            url: z.string(),
            snippet: z.string(),
            score: z.number(),
            rank: z.number().int(),
            tags: z.array(z.string()),
            published: z.boolean(),
          }),
        ),
      }),
    },
    async (args) => structured(search(args)),
  );
  return server;
}

const http = createServer(toNodeHandler(createMcpHandler(createWorkloadServer)));
http.listen(Number(values.port), '127.0.0.1', () => {
  process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
});
