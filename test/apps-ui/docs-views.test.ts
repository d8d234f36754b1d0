// `mcp-gen docs` lists each tool's view (MCP Apps) and says when only views may call a tool.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { repoRoot, tempDir } from '../server/support.js';

it("the docs page names each tool's view and app-only tools", async () => {
  const out = tempDir('apps-ui-docs');
  const err: string[] = [];
  const code = await main(['docs', join(repoRoot, 'test/fixtures/apps-ui/weather-views/manifest.yaml'), '-o', out, '--no-version-banner'], { out: () => {}, err: (l) => err.push(l) });
  expect(code, err.join('\n')).toBe(0);
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  const section = (tool: string): string => html.slice(html.indexOf(`<h3><code>${tool}</code>`), html.indexOf('<h4>Input</h4>', html.indexOf(`<h3><code>${tool}</code>`)));
  expect(section('show_forecast')).toContain('<p class="view">Shown in the view <code>ui://weather/forecast</code></p>');
  expect(section('refresh_forecast')).toContain('<p class="view">Shown in the view <code>ui://weather/forecast</code>; called by views only, never by the model</p>');
  expect(section('get_time')).not.toContain('class="view"');
});
