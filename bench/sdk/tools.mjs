// The workload's tools for the official SDK's McpServer, declared in zod as an SDK user would
// (shared by the stdio and the Streamable HTTP SDK servers).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { getWeather, search } from '../lib/handlers.mjs';

/** A fresh McpServer with get_weather and search registered. */
export function createWorkloadServer() {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });

  function structured(structuredContent) {
    return {
      content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
      structuredContent,
    };
  }

  server.registerTool(
    'get_weather',
    {
      description: 'Get current weather for a location',
      inputSchema: {
        location: z.string().describe('City name or zip code'),
        units: z.enum(['celsius', 'fahrenheit']).optional().describe('Temperature units'),
      },
      outputSchema: { temperature: z.number(), conditions: z.string(), humidity: z.number() },
    },
    async (args) => structured(getWeather(args)),
  );

  server.registerTool(
    'search',
    {
      description: 'Search the document index; returns up to 50 structured results',
      inputSchema: {
        query: z.string().describe('Search query'),
        limit: z.number().int().min(1).max(50).optional().describe('Maximum number of results'),
      },
      outputSchema: {
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
      },
    },
    async (args) => structured(search(args)),
  );
  return server;
}
