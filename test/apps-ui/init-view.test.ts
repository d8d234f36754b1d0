// `mcp-gen init --view`: a server project whose example tool shows its results in an MCP Apps view
// (generated without installing anything; the slow tier's init.test.ts does the real npm install).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { tempDir, typeCheck } from '../server/support.js';

it('init --view writes the view, links the tool, generates its bindings, and type-checks', async () => {
  const dir = join(tempDir('apps-ui-init'), 'greeter');
  const err: string[] = [];
  const code = await main(['init', dir, '--view', '--name', 'greeter'], { out: () => {}, err: (l) => err.push(l) });
  expect(code, err.join('\n')).toBe(0);
  expect(readFileSync(join(dir, 'manifest.yaml'), 'utf8')).toMatch(/view: ui:\/\/greeter\/greeting\n[\s\S]*views:\n  - uri: ui:\/\/greeter\/greeting/);
  expect(readFileSync(join(dir, 'views', 'greeting.html'), 'utf8')).toContain("method: 'ui/initialize'");
  // The page is embedded in the generated server (JSON text in a string literal).
  expect(readFileSync(join(dir, 'generated', 'views.ts'), 'utf8')).toMatch(/'ui:\/\/greeter\/greeting': \(\) =>[\s\S]*speaks the view protocol/);
  expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.generate).toContain('mcp-gen client manifest.yaml --view ui://greeter/greeting -o view');
  expect(readFileSync(join(dir, 'view', 'view.ts'), 'utf8')).toContain("export const VIEW_URI = 'ui://greeter/greeting';");
  // The server, its handler (which must return text for the model too), the client and the view's bindings.
  expect(typeCheck([dir])).toEqual([]);
  // The project's `npm run check` (`mcp-gen check`) finds every output current, the view's bindings too.
  const out: string[] = [];
  const home = process.cwd();
  process.chdir(dir);
  try {
    const checked = await main(['check'], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(checked, err.join('\n')).toBe(0);
  } finally {
    process.chdir(home);
  }
  expect(out).toEqual(expect.arrayContaining([expect.stringMatching(/^view: up to date\./)]));
}, 180_000);

it('init --view with --client is refused', async () => {
  const err: string[] = [];
  const code = await main(['init', join(tempDir('apps-ui-init'), 'x'), '--view', '--client', '--url', 'http://127.0.0.1:1/mcp'], { out: () => {}, err: (l) => err.push(l) });
  expect(code).toBe(2);
  expect(err.join('\n')).toMatch(/--view makes a server project/);
});
