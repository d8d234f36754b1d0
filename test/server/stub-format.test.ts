/**
 * Tool handler stubs and handlers/index.ts are written without prettier (src/emit/server/user-files.ts
 * prints prettier's layout itself): prettier must find each of them unchanged, for the example, every fixture manifest,
 * the scale benchmark's tools and names long enough to take each of the template's layouts.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { handlersIndexFile, toolHandlerFile } from '../../src/emit/server/user-files.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import type { ToolModel } from '../../src/model/service-model.js';
import { formatText } from '../../src/write/render.js';
import { repoRoot } from '../client/support.js';
import { loadModel, tempDir } from './support.js';
import { manifestText } from '../../bench/scale/make-manifest.mjs';

const work = tempDir('stub-format');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every manifest.yaml under test/fixtures and examples. */
function manifests(): string[] {
  const found: string[] = [];
  for (const root of ['test/fixtures', 'examples']) {
    for (const path of readdirSync(join(repoRoot, root), { recursive: true, encoding: 'utf8' })) {
      if (/(^|[/\\])manifest\.yaml$/.test(path) && !path.includes('node_modules')) found.push(join(repoRoot, root, path));
    }
  }
  return found.sort();
}

/** Tool names from 1 to 90 characters (every layout of the message, and declarations too long for one line). */
function lengthsManifest(): string {
  const names = Array.from({ length: 90 }, (_, i) => `t${'_ab.c-d'.repeat(13).slice(0, i)}`);
  return JSON.stringify({ server: { name: 'lengths', version: '1.0.0' }, tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) });
}

async function toolsOf(manifestPath: string): Promise<ToolModel[]> {
  return (await loadModel(manifestPath)).tools;
}

async function stubsDrift(tools: ToolModel[]): Promise<{ laidOut: number; drifted: string[] }> {
  let laidOut = 0;
  const drifted: string[] = [];
  for (const tool of tools) {
    const file = toolHandlerFile(tool);
    if (file.format !== 'none') continue;
    laidOut++;
    if ((await formatText(file.content, 'typescript', file.path)) !== file.content) drifted.push(file.path);
  }
  return { laidOut, drifted };
}

/** handlers/index.ts of the model: whether it skips prettier, and whether prettier would change it. */
async function indexDrift(model: ServiceModel): Promise<{ laidOut: boolean; drifted: boolean }> {
  const file = handlersIndexFile(model, []);
  if (file.format !== 'none') return { laidOut: false, drifted: false };
  return { laidOut: true, drifted: (await formatText(file.content, 'typescript', file.path)) !== file.content };
}

describe('handlers/index.ts is already prettier-formatted', () => {
  it('for the example, every fixture manifest and the scale benchmark (whose 200 tools need no prettier)', async () => {
    const path = join(work, 'scale-index.json');
    writeFileSync(path, manifestText({ tools: 200 }));
    const models = await Promise.all([...manifests(), path].map(loadModel));
    const results = await Promise.all(models.map(indexDrift));
    expect(results.filter((r) => r.drifted)).toEqual([]);
    expect(results.at(-1)).toEqual({ laidOut: true, drifted: false });
    expect(results.filter((r) => r.laidOut).length).toBeGreaterThan(3);
  }, 120_000);

  it('for tool names of every length that are identifiers, an entry too long for one line broken after => (twice if need be)', async () => {
    const names = Array.from({ length: 90 }, (_, i) => `t${'_abcdefg'.repeat(12).slice(0, i)}`);
    const path = join(work, 'index-lengths.json');
    writeFileSync(path, JSON.stringify({ server: { name: 'lengths', version: '1.0.0' }, tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) }));
    const model = await loadModel(path);
    // Past some length, the entry's second line no longer fits either: that takes prettier.
    for (let n = 1; n <= names.length; n++) {
      const { laidOut, drifted } = await indexDrift({ ...model, tools: model.tools.slice(0, n) });
      expect(drifted, `${n} tools`).toBe(false);
      if (n === 20) expect(laidOut).toBe(true);
    }
    const content = handlersIndexFile({ ...model, tools: model.tools.slice(0, 20) }, []).content;
    expect(content).toMatch(/: \(input, context\) => import\(/);
    expect(content).toMatch(/: \(input, context\) =>\n {6}import\(.*\(input, context\)\),\n/);
    const longer = handlersIndexFile({ ...model, tools: model.tools.slice(0, 45) }, []);
    expect(longer.format).toBe('none');
    expect(longer.content).toMatch(/\.then\(\(m\) =>\n {8}m\.\w+\(input, context\),\n {6}\),\n/);
  }, 120_000);
});

describe('handlers/index.ts with quoted keys (names with dashes or dots, as GitHub\'s)', () => {
  it('is written without prettier in prettier\'s layout, beside unquoted keys, for names of every length', async () => {
    const names = Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? `t${'_abcdefg'.repeat(8).slice(0, i)}` : `t${'-ab.cd_e'.repeat(8).slice(0, i)}`));
    const path = join(work, 'index-quoted.json');
    writeFileSync(path, JSON.stringify({ server: { name: 'quoted', version: '1.0.0' }, tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) }));
    const model = await loadModel(path);
    for (const n of [2, 10, 30, 64]) {
      expect(await indexDrift({ ...model, tools: model.tools.slice(0, n) }), `${n} tools`).toEqual({ laidOut: true, drifted: false });
    }
    const content = handlersIndexFile(model, []).content;
    expect(content).toMatch(/^ {4}'t-ab\.cd_e[^']*': \(input, context\) =>$/m);
    expect(content).toMatch(/^ {4}t_ab: \(input, context\) =>/m);
  }, 120_000);

  it('goes through prettier for a key prettier might print another way', async () => {
    for (const odd of ['1tool', '__proto__']) {
      const path = join(work, 'index-odd.json');
      writeFileSync(path, JSON.stringify({ server: { name: 'odd', version: '1.0.0' }, tools: [{ name: 'a-b', inputSchema: { type: 'object' } }, { name: odd, inputSchema: { type: 'object' } }] }));
      const model = await loadModel(path);
      expect(handlersIndexFile(model, []).format, odd).toBe('typescript');
    }
  }, 120_000);
});

describe('tool handler stubs are already prettier-formatted', () => {
  it('for the example and every fixture manifest', async () => {
    const tools = (await Promise.all(manifests().map(toolsOf))).flat();
    expect(tools.length).toBeGreaterThan(20);
    const { laidOut, drifted } = await stubsDrift(tools);
    expect(drifted).toEqual([]);
    expect(laidOut).toBeGreaterThan(tools.length / 2);
  }, 120_000);

  it('for 200 tools of the scale benchmark, none of which needs prettier', async () => {
    const path = join(work, 'scale.json');
    writeFileSync(path, manifestText({ tools: 200 }));
    const tools = await toolsOf(path);
    const { laidOut, drifted } = await stubsDrift(tools);
    expect(drifted).toEqual([]);
    expect(laidOut).toBe(200);
  }, 120_000);

  it('for names of every length; a declaration too long for one line goes through prettier', async () => {
    const path = join(work, 'lengths.json');
    writeFileSync(path, lengthsManifest());
    const tools = await toolsOf(path);
    const { laidOut, drifted } = await stubsDrift(tools);
    expect(drifted).toEqual([]);
    const formats = tools.map((tool) => toolHandlerFile(tool).format);
    expect(formats.slice(0, laidOut)).toEqual(Array(laidOut).fill('none'));
    expect(formats.at(-1)).toBe('typescript');
    // All three layouts of the message were taken by stubs written without prettier.
    const contents = tools.map((tool) => toolHandlerFile(tool)).filter((f) => f.format === 'none').map((f) => f.content);
    expect(contents.some((c) => c.includes("    content: [{ type: 'text'"))).toBe(true);
    expect(contents.some((c) => c.includes("      { type: 'text', text:"))).toBe(true);
    expect(contents.some((c) => c.includes("        type: 'text',\n        text:"))).toBe(true);
  }, 120_000);
});
