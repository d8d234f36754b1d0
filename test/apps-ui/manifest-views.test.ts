// MCP Apps in the manifest: `views` and the tools linking to them load into the model and onto the
// wire; every mistake is reported at its line:column, and the CLI exits 2 writing nothing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, problemsOf, tempProject } from '../manifest/helpers.js';

const PAGE = '<!doctype html><html><body>forecast</body></html>\n';

async function project(lines: string[], files: Record<string, string> = { 'views/forecast.html': PAGE }): Promise<string> {
  const root = await tempProject({ 'manifest.yaml': `${lines.join('\n')}\n`, ...files });
  return path.join(root, 'manifest.yaml');
}

const head = [
  'server: { name: s, version: "1" }',
  'views:',
  '  - uri: ui://s/forecast',
  '    name: forecast',
  '    html: views/forecast.html',
];

describe('manifest views', () => {
  test('load into the model: the view as a ui:// resource, the tool with _meta.ui', async () => {
    const file = await project([
      ...head,
      '    csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com:8443"] }',
      '    permissions: [clipboardWrite, camera]',
      '    domain: abc.example-content.com',
      '    prefersBorder: false',
      'tools:',
      '  - name: show',
      '    view: ui://s/forecast',
      '    visibility: [app, model]',
      '    _meta: { other: 1 }',
      '    inputSchema: { type: object }',
    ]);
    const { model } = await loadManifest(file);
    const ui = {
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com:8443'] },
      permissions: { clipboardWrite: {}, camera: {} },
      domain: 'abc.example-content.com',
      prefersBorder: false,
    };
    expect(model.views).toEqual([
      { uri: 'ui://s/forecast', name: 'forecast', ui, html: PAGE, wire: { uri: 'ui://s/forecast', name: 'forecast', mimeType: 'text/html;profile=mcp-app', _meta: { ui } } },
    ]);
    expect(model.tools[0]?.wire['_meta']).toEqual({ other: 1, ui: { resourceUri: 'ui://s/forecast', visibility: ['model', 'app'] } });
    expect(model.tools[0]).toMatchObject({ view: 'ui://s/forecast', visibility: ['model', 'app'] });
  });

  test('a folder names the index.html a bundler built into it', async () => {
    const file = await project([...head.slice(0, 4), '    html: dist', 'tools: []'], { 'dist/index.html': PAGE });
    const { model } = await loadManifest(file);
    expect(model.views?.[0]?.html).toBe(PAGE);
  });

  test('each mistake at its line and column', async () => {
    const file = await project([
      ...head,
      '    csp:',
      '      connectDomains: ["https://api.example.com/v1", "api.example.com", "ftp://files.example.com"]',
      '  - uri: ui://s/missing',
      '    name: missing',
      '    html: views/missing.html',
      '  - uri: http://s/not-ui',
      '    name: wrong',
      '    html: views/forecast.html',
      'resources:',
      '  - { uri: "ui://s/forecast", name: clash }',
      'tools:',
      '  - name: a',
      '    view: ui://s/forecas',
      '    inputSchema: { type: object }',
      '  - name: b',
      '    view: ui://s/forecast',
      '    visibility: [model, agent]',
      '    inputSchema: { type: object }',
      '  - name: c',
      '    _meta: { ui: { resourceUri: "ui://s/forecast" } }',
      '    inputSchema: { type: object }',
    ]);
    expect((await problemsOf(file)).map(brief)).toEqual([
      "3:10 /views/0/uri duplicate resource URI 'ui://s/forecast' (first at resources/0)",
      '7:24 /views/0/csp/connectDomains/0 \'https://api.example.com/v1\' has a path, query or fragment: a CSP source here is an origin alone',
      '7:54 /views/0/csp/connectDomains/1 \'api.example.com\' has no scheme',
      '7:73 /views/0/csp/connectDomains/2 \'ftp://files.example.com\' uses a scheme other than http, https, ws or wss',
      "10:11 /views/1/html view page 'views/missing.html' not found",
      "11:10 /views/2/uri 'http://s/not-ui' is not a ui:// URI",
      "18:11 /tools/0/view tool links to view 'ui://s/forecas', which the manifest does not declare",
      "22:25 /tools/1/visibility/1 'agent' is not a visibility",
      '25:18 /tools/2/_meta/ui _meta.ui is written by mcp-gen from the tool\'s view and visibility',
    ]);
  });

  test('the CLI prints file:line:col, exits 2 and writes nothing', async () => {
    const file = await project([...head, 'tools:', '  - name: a', '    view: ui://s/forecst', '    inputSchema: { type: object }']);
    const err: string[] = [];
    const out = path.join(path.dirname(file), 'out');
    const code = await main(['server', file, '-o', out], { out: () => {}, err: (line) => err.push(line) });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/manifest\.yaml:8:11: .*tool links to view 'ui:\/\/s\/forecst', which the manifest does not declare/);
    expect(err.join('\n')).toMatch(/did you mean 'ui:\/\/s\/forecast'\?/);
    expect(existsSync(out)).toBe(false);
  });
});
