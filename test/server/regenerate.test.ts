/**
 * Regenerating over an existing project: user-owned files survive byte for byte, new tools get a
 * stub and an entry in handlers/index.ts (lines added, nothing else touched), removed tools are
 * reported and left in place.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerPlan } from '../../src/emit/server/index.js';
import { loadModel, plan, tempDir, typeCheck, write } from './support.js';

const work = tempDir('server-regen');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const out = join(work, 'server');
const manifest = join(work, 'manifest.yaml');
const read = (path: string): string => readFileSync(join(out, path), 'utf8');
const edit = (path: string, text: string): void => writeFileSync(join(out, path), text);

const V1 = `server: { name: shop, version: 1.0.0 }
tools:
  - name: list_items
    inputSchema: { type: object, properties: { page: { type: integer } } }
    outputSchema: { type: object, properties: { items: { type: array, items: { type: string } } }, required: [items] }
  - name: old_tool
    inputSchema: { type: object }
resources:
  - { uri: 'shop://catalog', name: catalog }
prompts:
  - { name: greet, arguments: [{ name: who, required: true }] }
`;

const V2 = `server: { name: shop, version: 1.1.0 }
tools:
  - name: list_items
    inputSchema: { type: object, properties: { page: { type: integer } } }
    outputSchema: { type: object, properties: { items: { type: array, items: { type: string } } }, required: [items] }
  - name: add-item
    description: Adds an item.
    inputSchema: { type: object, properties: { name: { type: string } }, required: [name] }
  - name: resources
    inputSchema: { type: object }
resources:
  - { uri: 'shop://catalog', name: catalog }
  - { uri: 'shop://orders', name: orders }
resourceTemplates:
  - { uriTemplate: 'shop://items/{id}', name: item }
prompts:
  - { name: greet, arguments: [{ name: who, required: true }] }
`;

async function generate(yaml: string): Promise<{ plan: ServerPlan; report: Awaited<ReturnType<typeof write>> }> {
  writeFileSync(manifest, yaml);
  const serverPlan = await plan(await loadModel(manifest));
  const report = await write(out, serverPlan, manifest);
  return { plan: serverPlan, report };
}

/** The user's project after generation from V1 and some hand edits. */
const USER = {
  'handlers/tools/listItems.ts': `import type { ToolHandlers } from '../../generated/types.js';

// My implementation, formatted my way.
export const listItems: ToolHandlers['list_items']   =   async ( input ) => {
    const page = input.page ?? 0
    return { structuredContent: { items: [ 'a', 'b' ].slice( page ) } }
}
`,
  'handlers/index.ts': `import type { Handlers } from '../generated/types.js';
import { listItems } from './tools/listItems.js';
import { oldTool } from './tools/oldTool.js';
import { resources } from './resources.js';
import { prompts } from './prompts.js';

// Hand-written comment that must survive.
export const handlers: Handlers = {
  tools: {
    list_items: listItems,   // aligned comment
    old_tool: oldTool,
  },
  resources,
  prompts
};
`,
  'handlers/resources.ts': `import type { ResourceHandlers } from '../generated/types.js';

export const resources: ResourceHandlers = {
  'shop://catalog': async (uri) => ({ contents: [{ uri, text: 'catalog' }] }),
};
`,
};

describe('regeneration', () => {
  it('creates the project, then keeps every user edit while adding what the manifest gained', async () => {
    const first = await generate(V1);
    expect(first.report.created).toEqual(expect.arrayContaining(['handlers/index.ts', 'handlers/tools/oldTool.ts', 'main.ts']));
    for (const [path, text] of Object.entries(USER)) edit(path, text);
    const untouched = ['handlers/tools/oldTool.ts', 'handlers/prompts.ts', 'main.ts', 'package.json', 'tsconfig.json', '.gitignore'];
    const before = Object.fromEntries(untouched.map((p) => [p, read(p)]));

    const second = await generate(V2);
    expect(second.report.merged.sort()).toEqual(['handlers/index.ts', 'handlers/resources.ts']);
    expect(second.report.created.filter((p) => !p.startsWith('generated/')).sort()).toEqual([
      'handlers/resource-templates.ts',
      'handlers/tools/addItem.ts',
      'handlers/tools/resources.ts',
    ]);
    expect(second.report.kept.sort()).toEqual(
      ['.gitignore', 'handlers/prompts.ts', 'handlers/tools/listItems.ts', 'main.ts', 'package.json', 'tsconfig.json'].sort(),
    );

    // Untouched and hand-edited files: byte for byte.
    for (const path of untouched) expect(read(path), path).toBe(before[path]);
    expect(read('handlers/tools/listItems.ts')).toBe(USER['handlers/tools/listItems.ts']);

    // handlers/index.ts: exactly the user's text plus whole added lines (the tools object had a
    // trailing comma, so the entries go last; the outer object had none, so its entry goes first).
    // Added lines are not reformatted: keys are JSON-style string literals.
    expect(read('handlers/index.ts')).toBe(`import type { Handlers } from '../generated/types.js';
import { listItems } from './tools/listItems.js';
import { oldTool } from './tools/oldTool.js';
import { resources } from './resources.js';
import { prompts } from './prompts.js';
import { addItem } from './tools/addItem.js';
import { resources as resourcesTool } from './tools/resources.js';
import { resourceTemplates } from './resource-templates.js';

// Hand-written comment that must survive.
export const handlers: Handlers = {
  resourceTemplates,
  tools: {
    list_items: listItems,   // aligned comment
    old_tool: oldTool,
    "add-item": addItem,
    resources: resourcesTool,
  },
  resources,
  prompts
};
`);

    const resources = read('handlers/resources.ts');
    expect(resources.startsWith(USER['handlers/resources.ts'].slice(0, USER['handlers/resources.ts'].lastIndexOf('\n};')))).toBe(true);
    expect(resources).toContain(`  "shop://orders": async (_uri, _context) => {
    throw new Error("resource shop://orders is not implemented yet: edit handlers/resources.ts");
  },
};
`);
    expect(removedLines(USER['handlers/resources.ts'], resources)).toEqual([]);

    expect(second.plan.notes).toEqual([
      'tool "old_tool" is no longer in the manifest: handlers/index.ts still registers it (a type error until you remove that line), and its handler file was left in place.',
    ]);

    // Following the note (removing the old tool) leaves a project that compiles, new stubs included.
    edit('handlers/index.ts', read('handlers/index.ts').replace(`import { oldTool } from './tools/oldTool.js';\n`, '').replace('    old_tool: oldTool,\n', ''));
    rmSync(join(out, 'handlers/tools/oldTool.ts'));
    expect(typeCheck([out])).toEqual([]);

    // And a third run changes nothing the user owns.
    const third = await generate(V2);
    expect(third.report.merged).toEqual([]);
    expect(third.plan.notes).toEqual([]);
  }, 300_000);

  it('reports, and leaves alone, a collector it cannot find its way in', async () => {
    edit('handlers/index.ts', `export { handlers } from './somewhere-else.js';\n`);
    const { report, plan: serverPlan } = await generate(V2);
    expect(report.kept).toContain('handlers/index.ts');
    expect(read('handlers/index.ts')).toBe(`export { handlers } from './somewhere-else.js';\n`);
    expect(serverPlan.notes).toEqual([
      'handlers/index.ts: found no `handlers = { tools: { … } }` object to update; make sure it registers every tool (list_items, add-item, resources).',
    ]);
  });
});

/** Lines of `before` that are not in `after`, in order (a plain LCS walk is enough for small files). */
function removedLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const removed: string[] = [];
  let j = 0;
  for (const line of a) {
    const found = b.indexOf(line, j);
    if (found === -1) removed.push(line);
    else j = found + 1;
  }
  return removed;
}
