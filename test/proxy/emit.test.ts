// What `http` bindings add to a generated server, and what a manifest without them never gets.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { proxyHandlerFile } from '../../src/emit/server/proxy-file.js';
import type { ToolModel } from '../../src/model/service-model.js';
import { formatText } from '../../src/write/render.js';
import { loadModel, plan, repoRoot, runtimeSources } from '../server/support.js';

const styles = join(import.meta.dirname, 'fixtures', 'styles.yaml');

describe('emitting proxied tools', () => {
  test('runtime/proxy/ is copied byte for byte with bindings, and not at all without', async () => {
    const withBindings = await plan(await loadModel(styles));
    const proxyRuntime = Object.keys(runtimeSources()).filter((name) => name.startsWith('proxy/'));
    expect(proxyRuntime.length).toBeGreaterThan(3);
    for (const name of proxyRuntime) expect(withBindings.files.find((f) => f.path === `generated/runtime/${name}`)?.content, name).toBe(runtimeSources()[name]);
    expect(withBindings.files.some((f) => f.path === 'generated/proxy.ts')).toBe(true);

    const weather = await plan(await loadModel(join(repoRoot, 'examples', 'weather', 'manifest.yaml')));
    expect(weather.files.filter((f) => f.path.startsWith('generated/runtime/proxy/') || f.path === 'generated/proxy.ts')).toEqual([]);
  });

  test('same inputs, same bytes; the proxy imports no package', async () => {
    const a = await plan(await loadModel(styles));
    const b = await plan(await loadModel(styles));
    const text = (p: typeof a, path: string): string => p.files.find((f) => f.path === path)?.content as string;
    expect(text(a, 'generated/proxy.ts')).toBe(text(b, 'generated/proxy.ts'));
    for (const file of a.files.filter((f) => f.path.startsWith('generated/runtime/proxy/') || f.path === 'generated/proxy.ts')) {
      const imports = [...(file.content as string).matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      expect(imports.filter((specifier) => !specifier.startsWith('.')), file.path).toEqual([]);
    }
  });

  test('stubs printed without prettier are in its layout, for names of every length', async () => {
    const tool = (await loadModel(styles)).tools.find((t) => t.name === 'get_text') as ToolModel;
    let laidOut = 0;
    const layouts = new Set<string>();
    const layoutOf = (content: string): string =>
      content.includes('= (\n  input,\n  context,\n) => proxy(')
        ? 'parameters'
        : content.includes('=\n  (input, context) =>\n    proxy(')
          ? 'after = and =>'
          : content.includes('=\n  (input, context) => proxy(')
            ? 'after ='
            : content.includes('=>\n  proxy(')
              ? 'after arrow'
              : 'one line';
    for (let length = 1; length <= 90; length++) {
      for (const camelLength of [1, 10, 30, length]) {
        const [name, camel] = ['n'.repeat(length), 'c'.repeat(camelLength)];
        const file = proxyHandlerFile({ ...tool, name, ids: { pascal: camel, camel } }, 'handlers/tools/x.ts', 'A description.');
        if (file.format !== 'none') continue;
        laidOut++;
        const content = file.content as string;
        layouts.add(layoutOf(content));
        expect(await formatText(content, 'typescript', file.path), `${camel}: ${name}`).toBe(content);
      }
    }
    // Every layout was taken; only a declaration past the width on its own goes through prettier.
    expect([...layouts].sort()).toEqual(['after =', 'after = and =>', 'after arrow', 'one line', 'parameters']);
    expect(laidOut).toBeGreaterThan(150);
  });
});
