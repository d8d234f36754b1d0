// `mcp-gen mock` serves MCP Apps views as the generated server does (page and _meta.ui), and the
// view's tools answer sample data that matches their outputSchemas.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/index.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { RawStdio } from '../runtime/raw-stdio.js';
import { repoRoot } from '../server/support.js';

const fixture = join(repoRoot, 'test/fixtures/apps-ui/weather-views');

it('the mock serves the view and sample results for its tools', async () => {
  const { model } = await loadManifest(join(fixture, 'manifest.yaml'));
  const server = await createMockServer({ model, seed: 7, serverOptions: { logger: () => {} } });
  const raw = new RawStdio(100, undefined, undefined, server);
  await raw.initialize('2025-11-25', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
  const tools = (await raw.call(1, 'tools/list'))['result']['tools'] as { name: string; _meta?: unknown }[];
  expect(tools.find((t) => t.name === 'refresh_forecast')?._meta).toEqual({ ui: { resourceUri: 'ui://weather/forecast', visibility: ['app'] } });
  const read = (await raw.call(2, 'resources/read', { uri: 'ui://weather/forecast' }))['result'];
  expect(read['contents'][0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: readFileSync(join(fixture, 'views/forecast.html'), 'utf8'), _meta: { ui: { prefersBorder: true } } });
  const shown = (await raw.call(3, 'tools/call', { name: 'show_forecast', arguments: { city: 'Oslo' } }))['result'];
  expect(shown['isError']).toBeUndefined();
  expect(typeof shown['structuredContent']['city']).toBe('string');
  expect(Array.isArray(shown['structuredContent']['temperatures'])).toBe(true);
});
