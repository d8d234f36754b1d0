/**
 * `mcp-gen diff` on MCP Apps: a view removed, a tool unlinked from its view or moved to another,
 * and visibility narrowed are breaking for the apps that use them; a view added and visibility
 * widened are compatible. Manifests (with their pages) and snapshots, through the CLI.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffJson, manifest, snapshot, tempDir, writeJson } from '../diff/helpers.js';

type Json = { [key: string]: unknown };

const view = (uri: string): Json => ({ uri, name: uri.slice(5), html: 'page.html' });
const tool = (extra: Json = {}): Json => ({ name: 't', inputSchema: { type: 'object' }, ...extra });

async function findings(oldSide: Json, newSide: Json): Promise<[string, string, string][]> {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'page.html'), '<!doctype html><p>hi</p>\n');
  const report = await diffJson(writeJson(dir, 'old.json', oldSide), writeJson(dir, 'new.json', newSide));
  return report.findings.map((f) => [f.severity, f.pointer, f.message]);
}

const withViews = (views: string[], toolExtra: Json = {}): Json => ({ ...manifest({ tools: [tool(toolExtra)] }), views: views.map(view) });

describe('diff: MCP Apps', () => {
  it('a view removed with its link is breaking; added back, compatible', async () => {
    const before = withViews(['ui://a'], { view: 'ui://a' });
    const after = withViews([]);
    expect(await findings(before, after)).toEqual([
      ['breaking', '/tools/t/_meta/ui/resourceUri', `view "ui://a" removed: hosts show the tool's results as text only`],
      ['breaking', '/resources/ui:~1~1a', 'resource "ui://a" removed'],
    ]);
    expect(await findings(after, before)).toEqual([
      ['compatible', '/tools/t/_meta/ui/resourceUri', 'view "ui://a" added'],
      ['compatible', '/resources/ui:~1~1a', 'resource "ui://a" added'],
    ]);
  });

  it('a tool moved to another view is breaking', async () => {
    const result = await findings(withViews(['ui://a', 'ui://b'], { view: 'ui://a' }), withViews(['ui://a', 'ui://b'], { view: 'ui://b' }));
    expect(result).toEqual([['breaking', '/tools/t/_meta/ui/resourceUri', 'view changed from "ui://a" to "ui://b": apps built for the old view no longer get its results']]);
  });

  it('visibility narrowed is breaking, widened compatible (absent means both)', async () => {
    const both = withViews(['ui://a'], { view: 'ui://a' });
    const appOnly = withViews(['ui://a'], { view: 'ui://a', visibility: ['app'] });
    expect(await findings(both, appOnly)).toEqual([['breaking', '/tools/t/_meta/ui/visibility', 'visibility narrowed from ["model","app"] to ["app"]: the model can no longer call it']]);
    expect(await findings(appOnly, both)).toEqual([['compatible', '/tools/t/_meta/ui/visibility', 'visibility widened from ["app"] to ["model","app"]']]);
  });

  it('snapshots of live servers are read the same way', async () => {
    const ui = (visibility: string[]): Json => tool({ _meta: { ui: { resourceUri: 'ui://a', visibility } } });
    const resource = { uri: 'ui://a', name: 'a', mimeType: 'text/html;profile=mcp-app' };
    const result = await findings(snapshot({ tools: [ui(['model', 'app'])], resources: [resource] }), snapshot({ tools: [ui(['model'])], resources: [] }));
    expect(result).toEqual([
      ['breaking', '/tools/t/_meta/ui/visibility', 'visibility narrowed from ["model","app"] to ["model"]: views can no longer call it'],
      ['breaking', '/resources/ui:~1~1a', 'resource "ui://a" removed'],
    ]);
  });
});
