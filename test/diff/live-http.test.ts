/**
 * Live sides over Streamable HTTP: two versions of a server written with the official SDK 1.x
 * (stateless, in process), diffed by URL, with --header passed on to both.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from './helpers.js';

/** The weather server as it was (v1) and as it is (v2: no more fahrenheit, a new optional input). */
function weatherServer(version: 'v1' | 'v2'): McpServer {
  const server = new McpServer({ name: 'weather', version: version === 'v1' ? '1.0.0' : '2.0.0' });
  const units = version === 'v1' ? z.enum(['celsius', 'fahrenheit']) : z.enum(['celsius']);
  const inputSchema = version === 'v1' ? { location: z.string(), units: units.optional() } : { location: z.string(), units: units.optional(), lang: z.string().optional() };
  server.registerTool('get_weather', { description: 'Current conditions.', inputSchema, outputSchema: { temperature: z.number() } }, async () => ({
    content: [{ type: 'text' as const, text: '20' }],
    structuredContent: { temperature: 20 },
  }));
  return server;
}

let http: Server;
let base: string;
const authorizations: (string | undefined)[] = [];

beforeAll(async () => {
  http = createServer(async (req: IncomingMessage, res) => {
    authorizations.push(req.headers['authorization']);
    const version = req.url?.startsWith('/v1') ? 'v1' : 'v2';
    let text = '';
    for await (const chunk of req) text += chunk;
    const server = weatherServer(version);
    const transport = new StreamableHTTPServerTransport({}) // no session id generator: stateless;
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, text === '' ? undefined : JSON.parse(text));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe('mcp-gen diff with live HTTP servers', () => {
  it('classifies the changes between two live versions', async () => {
    const result = await run('diff', `${base}/v1/mcp`, `${base}/v2/mcp`, '--json', '--header', 'Authorization: Bearer t0ken');
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out.join('\n'));
    expect(report.findings.map((f: { severity: string; pointer: string }) => [f.severity, f.pointer])).toEqual([
      ['breaking', '/tools/get_weather/inputSchema/properties/units/enum'],
      ['compatible', '/tools/get_weather/inputSchema/properties/lang'],
    ]);
    expect(authorizations.length).toBeGreaterThan(0);
    expect(authorizations.every((a) => a === 'Bearer t0ken')).toBe(true);
  });
});
