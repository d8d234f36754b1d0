/**
 * MCP Apps on the wire of a generated server (imported in-process, driven with raw JSON-RPC over
 * stdio streams): the view served as a `ui://` resource with its `_meta.ui`, tools carrying
 * `_meta.ui`, and the extension negotiated in both eras. A host that does not declare
 * `io.modelcontextprotocol/ui` gets the text-only fallback: no `_meta.ui`, no app-only tool.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { McpServer } from '../../src/runtime/index.js';
import { RawStdio } from '../runtime/raw-stdio.js';
import { loadModel, plan, repoRoot, tempDir, write } from '../server/support.js';

const fixture = join(repoRoot, 'test/fixtures/apps-ui/weather-views');
const PAGE = readFileSync(join(fixture, 'views/forecast.html'), 'utf8');
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const VIEW_UI = { csp: { connectDomains: ['https://api.example.com'] }, permissions: { geolocation: {} }, prefersBorder: true };

let makeServer: () => McpServer;

beforeAll(async () => {
  const out = tempDir('apps-ui-negotiation');
  const manifest = join(fixture, 'manifest.yaml');
  await write(out, await plan(await loadModel(manifest)), manifest);
  cpSync(join(fixture, 'handlers'), join(out, 'handlers'), { recursive: true });
  const { createServer } = (await import(pathToFileURL(join(out, 'generated/server.ts')).href)) as { createServer: (h: unknown, o: unknown) => McpServer };
  const { handlers } = (await import(pathToFileURL(join(out, 'handlers/index.ts')).href)) as { handlers: unknown };
  makeServer = () => createServer(handlers, { logger: () => {} });
}, 120_000);

const meta = (capabilities: object) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
});

/** One era's way of asking, with or without the extension declared. */
const eras = [
  {
    era: '2025-11-25',
    open: async (capabilities: object) => {
      const raw = new RawStdio(100, undefined, undefined, makeServer());
      await raw.initialize('2025-11-25', capabilities);
      let id = 0;
      return (method: string, params: object = {}) => raw.call(++id, method, params);
    },
  },
  {
    era: '2026-07-28',
    open: async (capabilities: object) => {
      const raw = new RawStdio(100, undefined, undefined, makeServer());
      let id = 0;
      return (method: string, params: object = {}) => raw.call(++id, method, { ...params, _meta: meta(capabilities) });
    },
  },
];

describe.each(eras)('MCP Apps at $era', ({ open }) => {
  it('a host with the extension sees the tools with _meta.ui and reads the view', async () => {
    const call = await open({ extensions: UI });
    const tools = (await call('tools/list'))['result']['tools'] as Record<string, any>[];
    expect(tools.map((t) => [t['name'], t['_meta']])).toEqual([
      ['show_forecast', { ui: { resourceUri: 'ui://weather/forecast' } }],
      ['refresh_forecast', { ui: { resourceUri: 'ui://weather/forecast', visibility: ['app'] } }],
      ['get_time', undefined],
    ]);
    const resources = (await call('resources/list'))['result']['resources'];
    expect(resources).toEqual([
      { uri: 'ui://weather/forecast', name: 'forecast', title: 'Forecast', description: 'The forecast of one city', mimeType: 'text/html;profile=mcp-app', _meta: { ui: VIEW_UI } },
    ]);
    const read = (await call('resources/read', { uri: 'ui://weather/forecast' }))['result'];
    expect(read['contents']).toEqual([{ uri: 'ui://weather/forecast', mimeType: 'text/html;profile=mcp-app', text: PAGE, _meta: { ui: VIEW_UI } }]);
    const refreshed = (await call('tools/call', { name: 'refresh_forecast', arguments: { city: 'Oslo' } }))['result'];
    expect(refreshed['structuredContent']).toEqual({ temperature: 4 });
    const shown = (await call('tools/call', { name: 'show_forecast', arguments: { city: 'Oslo', days: 2 } }))['result'];
    expect(shown).toMatchObject({ structuredContent: { city: 'Oslo', temperatures: [20, 21] }, content: [{ type: 'text', text: 'Oslo: 20, 21 °C' }] });
  });

  it.each([
    ['no extensions', {}],
    ['another extension', { extensions: { 'io.example/other': {} } }],
    ['the extension without our mime type', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/uri-list'] } } }],
  ])('a host with %s gets the text-only fallback', async (_what, capabilities) => {
    const call = await open(capabilities);
    const tools = (await call('tools/list'))['result']['tools'] as Record<string, any>[];
    expect(tools.map((t) => t['name'])).toEqual(['show_forecast', 'get_time']);
    expect(tools.some((t) => t['_meta'] !== undefined)).toBe(false);
    const refused = await call('tools/call', { name: 'refresh_forecast', arguments: { city: 'Oslo' } });
    expect(refused['error']).toMatchObject({ code: -32602 });
    expect(refused['error']['message']).toMatch(/only for views \(io\.modelcontextprotocol\/ui\)/);
    // The model still gets the text of the tool the view would have shown.
    const shown = (await call('tools/call', { name: 'show_forecast', arguments: { city: 'Oslo', days: 1 } }))['result'];
    expect(shown['content']).toEqual([{ type: 'text', text: 'Oslo: 20 °C' }]);
  });
});
