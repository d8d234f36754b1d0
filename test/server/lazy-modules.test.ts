// Issue 16 item 5: a freshly generated server imports a tool's handler module and its validators
// on the tool's first call, so it starts without loading any. Driven by the official SDK client
// over stdio: the server answers with one handler module missing from its build, the other tools
// work, and the missing one fails only its own calls, with a message that names the module.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, loadModel, plan, repoRoot, tempDir, write } from './support.js';

const work = tempDir('lazy-modules');
let main: string;

beforeAll(async () => {
  const manifest = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
  const project = join(work, 'project');
  await write(project, await plan(await loadModel(manifest)), manifest);
  const out = join(work, 'build');
  main = build(project, out);
  // As if get_forecast's handler module had been lost from the build.
  rmSync(join(out, 'handlers', 'tools', 'getForecast.js'));
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a generated server with one handler module missing', () => {
  it('starts, serves the other tools, and fails only that tool, naming its module', async () => {
    const client = new Client({ name: 'lazy-modules', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [main], stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['get_weather', 'get_forecast', 'climate_report']);

      // A fresh stub: its module and validators load on this first call and answer "not implemented".
      const weather = await client.callTool({ name: 'get_weather', arguments: { location: 'Lisbon' } });
      expect(weather.isError).toBe(true);
      expect(weather.content).toEqual([{ type: 'text', text: 'get_weather is not implemented yet: edit handlers/tools/getWeather.ts' }]);
      // Its validators loaded too: bad arguments are refused before the handler runs.
      const refused = await client.callTool({ name: 'get_weather', arguments: { location: '' } });
      expect((refused.content as { text: string }[])[0]?.text).toMatch(/^Invalid arguments for tool get_weather: \/location must NOT have fewer than 1 characters/);

      const forecast = await client.callTool({ name: 'get_forecast', arguments: { location: 'Lisbon' } });
      expect(forecast.isError).toBe(true);
      expect((forecast.content as { text: string }[])[0]?.text).toMatch(/Cannot find module .*handlers[\\/]tools[\\/]getForecast\.js/);

      // The server keeps serving.
      const again = await client.callTool({ name: 'get_weather', arguments: { location: 'Oslo' } });
      expect(again.isError).toBe(true);
      expect((again.content as { text: string }[])[0]?.text).toContain('get_weather is not implemented yet');
    } finally {
      await client.close();
    }
  }, 60_000);
});
