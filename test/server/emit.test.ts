/**
 * Tier 1: one emitter feature per test, on tiny hand-built models, with the exact text expected.
 */
import { describe, expect, it } from 'vitest';
import { planServer } from '../../src/emit/server/index.js';
import { applyInsertions, exportedObject, parse, propertyInsertion } from '../../src/emit/server/merge.js';
import { typeBase } from '../../src/emit/shared/naming.js';
import { propertyKey } from '../../src/printer/names.js';
import { BUILD_DEPENDENCIES, packageName } from '../../src/emit/server/project-files.js';
import { BUNDLE_DEPENDENCIES } from '../../src/emit/server/bundle-files.js';
import type { SchemaObject } from '../../src/schema/keywords.js';
import { embedAt } from '../../src/emit/shared/embed.js';
import { capabilities } from '../../src/emit/server/server-file.js';
import type { ServiceModel, ToolModel } from '../../src/model/service-model.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runtimeSources, tempDir } from './support.js';
import rootPackage from '../../package.json' with { type: 'json' };

function tool(name: string, pascal: string, inputSchema: SchemaObject, outputSchema?: SchemaObject): ToolModel {
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  const wire = { name, inputSchema, ...(outputSchema ? { outputSchema } : {}) };
  return { name, ids: { pascal, camel }, inputSchema, ...(outputSchema ? { outputSchema } : {}), wire };
}

function model(parts: Partial<ServiceModel>): ServiceModel {
  return {
    server: { name: 'tiny', version: '1.0.0' },
    protocolVersions: ['2025-11-25'],
    listChanged: false,
    subscribe: false,
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    source: 'tiny.yaml',
    ...parts,
  };
}

async function file(m: ServiceModel, path: string): Promise<string> {
  const plan = await planServer(m, { runtimeSources: runtimeSources() });
  const found = plan.files.find((f) => f.path === path);
  if (!found) throw new Error(`no ${path} planned`);
  return found.content;
}

describe('property keys', () => {
  it('are bare, quoted, or computed for __proto__', () => {
    expect(propertyKey('get_weather')).toBe('get_weather');
    expect(propertyKey('class')).toBe('class');
    expect(propertyKey('get-user')).toBe('"get-user"');
    expect(propertyKey('1abc')).toBe('"1abc"');
    expect(propertyKey('a\u2028"b')).toBe('"a\\u2028\\"b"');
    expect(propertyKey('__proto__')).toBe('["__proto__"]');
  });

  it('type names survive json-schema-to-typescript unchanged', () => {
    expect(typeBase('_1abc')).toBe('_1Abc');
    expect(typeBase('Sha256sum_2')).toBe('Sha256Sum_2');
    expect(typeBase('GetWeather')).toBe('GetWeather');
  });
});

describe('identifiers', () => {
  it('are checked before they are printed', async () => {
    const bad = tool('x', 'X', { type: 'object' });
    bad.ids.camel = 'x/../../evil';
    await expect(planServer(model({ tools: [bad] }), { runtimeSources: runtimeSources() })).rejects.toThrow(/not a safe identifier/);
    bad.ids.camel = 'class';
    await expect(planServer(model({ tools: [bad] }), { runtimeSources: runtimeSources() })).rejects.toThrow(/not a safe identifier/);
  });
});

describe('schema embedding', () => {
  it('rewrites local $refs and nothing that only looks like one', () => {
    const schema = {
      $id: 'https://example.com/x',
      type: 'object',
      properties: {
        $ref: { type: 'string' },
        a: { $ref: '#/$defs/A' },
        b: { const: { $ref: '#/not/a/ref' }, default: { $ref: '#' } },
        self: { $ref: '#' },
      },
      $defs: { A: { items: [{ $ref: '#/$defs/A' }] } },
    };
    expect(embedAt(schema, '/$defs/X')).toEqual({
      type: 'object',
      properties: {
        $ref: { type: 'string' },
        a: { $ref: '#/$defs/X/$defs/A' },
        b: { const: { $ref: '#/not/a/ref' }, default: { $ref: '#' } },
        self: { $ref: '#/$defs/X' },
      },
      $defs: { A: { items: [{ $ref: '#/$defs/X/$defs/A' }] } },
    });
  });

  it('copies schema objects and shares data, leaving the input as it was', () => {
    const values = ['a', 'b'];
    const schema: SchemaObject = { properties: { p: { enum: values, $ref: '#/$defs/A' } }, $defs: { A: { const: { x: 1 } } }, $id: 'urn:x' };
    const before = JSON.parse(JSON.stringify(schema)) as unknown;
    const copy = embedAt(schema, '/$defs/X') as { properties: { p: { enum: unknown; $ref: string } }; $defs: { A: unknown } };
    expect(schema).toEqual(before);
    expect(copy.properties.p.$ref).toBe('#/$defs/X/$defs/A');
    expect(copy.properties.p).not.toBe((schema['properties'] as { p: unknown }).p);
    expect(copy.$defs.A).not.toBe((schema['$defs'] as { A: unknown }).A);
    // Data is never cloned: nothing downstream changes it, and a thousand tools' clones cost.
    expect(copy.properties.p.enum).toBe(values);
  });

  it('refuses a $ref the loader should have bundled', () => {
    expect(() => embedAt({ $ref: 'other.json#/x' }, '/$defs/X')).toThrow(/not local/);
  });

  it('keeps __proto__ keys as data', () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"type":"string"}},"const":{"__proto__":1}}') as SchemaObject;
    const copy = embedAt(schema, '/$defs/X');
    expect(Object.keys(copy['properties'] as object)).toEqual(['__proto__']);
    expect(Object.keys(copy['const'] as object)).toEqual(['__proto__']);
  });
});

describe('generated/types.ts', () => {
  it('ignores tsType and tsEnumNames in schemas (raw TypeScript from input)', async () => {
    const m = model({
      tools: [
        tool('t', 'T', {
          type: 'object',
          properties: {
            raw: { type: 'string', tsType: 'string; export const pwn = 1' },
            mode: { enum: ['a', 'b'], tsEnumNames: ['Pwn', 'Pwn2'] },
          },
        }),
      ],
    });
    const types = await file(m, 'generated/types.ts');
    expect(types).not.toContain('pwn');
    expect(types).not.toContain('Pwn');
    // Planned already formatted (assembled from units): prettier's layout and quotes.
    expect(types).toContain('raw?: string;\n');
    expect(types).toContain(`mode?: 'a' | 'b';\n`);
  });

  it('names every type itself, never from titles or $ids', async () => {
    const m = model({
      tools: [
        tool('t', 'T', { type: 'object', title: 'ToolHandlers', $id: 'Handlers', properties: { x: { $ref: '#/$defs/inner' } }, $defs: { inner: { title: 'Tools', type: 'string' } } }),
      ],
    });
    const types = await file(m, 'generated/types.ts');
    expect(types.match(/^export (interface|type) \w+/gm)?.sort()).toEqual([
      'export interface TInput',
      'export interface Tools',
      'export type HandlerContext',
      'export type Handlers',
      'export type Inner',
      'export type PromptName',
      'export type ToolHandlers',
      'export type ToolName',
    ]);
  });

  it('gives a definition held identically by every schema one type, named after its key', async () => {
    const units = { enum: ['c', 'f'] };
    const m = model({
      tools: [
        tool('a', 'A', { type: 'object', properties: { u: { $ref: '#/$defs/units' }, n: { $ref: '#/$defs/node' } }, $defs: { units, node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } } }),
        tool('b', 'B', { type: 'object', properties: { u: { $ref: '#/$defs/units' }, t: { $ref: '#/$defs/Tools' } }, $defs: { units, Tools: { type: 'string' } } }, {
          type: 'object',
          properties: { u: { $ref: '#/$defs/units' } },
          $defs: { units: { enum: ['k'] } },
        }),
      ],
    });
    const types = await file(m, 'generated/types.ts');
    const declared = types.match(/^export (?:interface|type) \w+/gm)?.map((d) => d.split(' ')[2]).sort();
    // `units` differs in B's output: one type per schema. `node` refers only to itself, held alike
    // wherever it is: one type by its key (3f4c038). `Tools` is shared but its name is taken: Def_Tools.
    expect(declared).toEqual(['AInput', 'AInput_Units', 'BInput', 'BInput_Units', 'BOutput', 'BOutput_Units', 'Def_Tools', 'HandlerContext', 'Handlers', 'Node', 'PromptName', 'ToolHandlers', 'ToolName', 'Tools']);
    expect(types).toMatch(/next\?: Node\b/);
    expect(types).toContain('t?: Def_Tools');

    const same = model({ tools: [tool('a', 'A', { type: 'object', properties: { u: { $ref: '#/$defs/units' } }, $defs: { units } }), tool('b', 'B', { type: 'object', properties: { u: { $ref: '#/$defs/units' } }, $defs: { units } })] });
    const sharedTypes = await file(same, 'generated/types.ts');
    expect(sharedTypes).toContain(`export type Units = 'c' | 'f';`);
    expect(sharedTypes.match(/u\?: Units;\n/g)).toHaveLength(2);

    // Copies written with their keys in another order are still the same definition.
    const limits = { type: 'integer', minimum: 0, maximum: 9 };
    const reordered = { maximum: 9, type: 'integer', minimum: 0 };
    const orders = model({ tools: [tool('a', 'A', { type: 'object', properties: { l: { $ref: '#/$defs/limits' } }, $defs: { limits } }), tool('b', 'B', { type: 'object', properties: { l: { $ref: '#/$defs/limits' } }, $defs: { limits: reordered } })] });
    const orderTypes = await file(orders, 'generated/types.ts');
    expect(orderTypes).toContain('export type Limits = number;');
    expect(orderTypes.match(/l\?: Limits;\n/g)).toHaveLength(2);
  });

  it('types tools without outputSchema as content-only (output never)', async () => {
    const types = await file(model({ tools: [tool('ping', 'Ping', { type: 'object' })] }), 'generated/types.ts');
    expect(types).toContain('output: never');
    expect(types).toContain('  ping: TypedToolHandler<PingInput, never>;\n');
    expect(types).toContain('type TypedToolHandler<Input, Output> = ToolHandler<InputOrUnknown<Input>, Output, HandlerContext>;\n');
  });

  it('types prompt arguments and template variables by name', async () => {
    const m = model({
      prompts: [
        {
          name: 'p',
          ids: { pascal: 'P', camel: 'p' },
          arguments: [
            { name: 'city', required: true },
            { name: 'a-b', required: false, description: 'x */ y' },
          ],
          wire: { name: 'p' },
        },
      ],
      resourceTemplates: [
        { uriTemplate: 'x://{a}/{b}{?a}', name: 't', ids: { pascal: 'T', camel: 't' }, variables: ['a', 'b', 'a'], wire: {} },
      ],
    });
    const types = await file(m, 'generated/types.ts');
    expect(types).toContain(`export type PArguments = {\n  city: string;\n  /** x *\\/ y */\n  'a-b'?: string;\n};\n`);
    expect(types).toContain(`  'x://{a}/{b}{?a}': ResourceTemplateHandler<\n    { readonly a: string; readonly b: string },\n    HandlerContext\n  >;\n`);
  });
});

describe('generated/validators.ts', () => {
  /** Every validator module as planned (the index, one module per tool, the helpers), imported through the index. */
  async function importValidators(m: ServiceModel): Promise<Record<string, (data: unknown) => boolean>> {
    const dir = tempDir('server-validators');
    try {
      const plan = await planServer(m, { runtimeSources: runtimeSources() });
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
      for (const planned of plan.files.filter((f) => /^generated\/validator.*\.ts$/.test(f.path))) {
        mkdirSync(dirname(join(dir, planned.path)), { recursive: true });
        writeFileSync(join(dir, planned.path), planned.content);
      }
      return (await import(pathToFileURL(join(dir, 'generated', 'validators.ts')).href)) as Record<string, (data: unknown) => boolean>;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('follow draft-07 when every tool schema declares it', async () => {
    const draft07 = tool('pair', 'Pair', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { $ref: '#/definitions/pair' } },
      definitions: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
    });
    const v = await importValidators(model({ tools: [draft07] }));
    expect(v['validatePairInput']?.({ pair: ['a', 1] })).toBe(true);
    expect(v['validatePairInput']?.({ pair: ['a', 'b'] })).toBe(false);
    expect(v['validatePairInput']?.({ pair: ['a', 1, true] })).toBe(false);
  });

  it('follow 2020-12 otherwise', async () => {
    const tuple = tool('pair', 'Pair', {
      type: 'object',
      properties: { pair: { $ref: '#/$defs/pair' } },
      $defs: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
    });
    const v = await importValidators(model({ tools: [tuple] }));
    expect(v['validatePairInput']?.({ pair: ['a', 1] })).toBe(true);
    expect(v['validatePairInput']?.({ pair: ['a', 'b'] })).toBe(false);
    expect(v['validatePairInput']?.({ pair: ['a', 1, true] })).toBe(false);
  });
});

describe('generated/server.ts', () => {
  const m = model({
    server: { name: 'n', version: '1', title: "*/ it's", instructions: 'line\u2028break' },
    tools: [
      tool(
        '__proto__',
        'Proto',
        JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as SchemaObject,
        { type: 'object' },
      ),
    ],
  });

  it('embeds every payload as data, never as an object literal, and each tool entry as JSON text', async () => {
    const server = await file(m, 'generated/server.ts');
    // Planned already formatted (assembled from units): prettier's layout and quotes.
    expect(server).toContain(`  serverInfo: JSON.parse('{"name":"n","version":"1","title":"*/ it\\'s"}'),\n`);
    expect(server).toContain(`  instructions: 'line\\u2028break',\n`);
    // Each tool a constant of its own: its tools/list entry as text (served as it is) and its binding.
    expect(server).toContain(`const tool_proto: ToolText = {\n  name: '__proto__',\n  text: '{"name":"__proto__","inputSchema":{"type":"object","properties":{"__proto__":`);
    expect(server).toContain(
      `  load: () =>\n    import('./validators/proto.js').then((m) => ({\n      validateInput: m.validateProtoInput,\n      validateOutput: m.validateProtoOutput,\n    })),\n};\n`,
    );
    expect(server).toContain('  tools: [],\n  toolBindings: {},\n  toolTexts: TOOLS,\n');
    expect(server).not.toMatch(/[\u2028\u2029]/);
  });

  it("states beside a tool's text the facts the runtime needs at start: taskSupport, an outputSchema that is not an object", async () => {
    const listed = tool('cities', 'Cities', { type: 'object' }, { type: 'array', items: { type: 'string' } });
    const slow = tool('slow', 'Slow', { type: 'object' });
    slow.wire['execution'] = { taskSupport: 'required' };
    const server = await file(model({ protocolVersions: ['2026-07-28', '2025-11-25'], tools: [listed, slow] }), 'generated/server.ts');
    expect(server).toMatch(/const tool_cities: ToolText = \{\n  name: 'cities',\n  text: '[^\n]*',\n  objectOutput: false,\n  load:/);
    expect(server).toMatch(/const tool_slow: ToolText = \{\n  name: 'slow',\n  text: '[^\n]*',\n  taskSupport: 'required',\n  load:/);
    expect(server.match(/objectOutput|taskSupport: '/g)).toHaveLength(2);
  });

  it('derives capabilities from what the manifest has', () => {
    expect(capabilities(model({}))).toEqual({ logging: {} });
    expect(capabilities(m)).toEqual({ tools: {}, logging: {} });
    const prompt = { name: 'p', ids: { pascal: 'P', camel: 'p' }, arguments: [], wire: {} };
    const template = { uriTemplate: 'x://{a}', name: 't', ids: { pascal: 'T', camel: 't' }, variables: ['a'], wire: {} };
    expect(capabilities(model({ prompts: [prompt] }))).toEqual({ prompts: {}, logging: {}, completions: {} });
    expect(capabilities(model({ resourceTemplates: [template] }))).toEqual({ resources: {}, logging: {}, completions: {} });
  });
});

describe('user-owned files', () => {
  it('a tool stub compiles to a clear not-implemented tool error', async () => {
    const stub = await file(model({ tools: [tool('get_weather', 'GetWeather', { type: 'object' })] }), 'handlers/tools/getWeather.ts');
    // Planned already in prettier's layout (the stub is written without prettier): the message is too long for one line.
    expect(stub).toContain(`export const getWeather: ToolHandlers['get_weather'] = async (_input, _context) => {`);
    expect(stub).toContain(`        text: 'get_weather is not implemented yet: edit handlers/tools/getWeather.ts',\n`);
    expect(stub).toContain('isError: true');
  });

  it('the project builds with the TypeScript mcp-gen itself uses', async () => {
    const pkg = JSON.parse(await file(model({}), 'package.json')) as { devDependencies: Record<string, string>; scripts: Record<string, string> };
    for (const [name, version] of Object.entries(BUILD_DEPENDENCIES)) {
      expect(rootPackage.devDependencies[name as keyof typeof rootPackage.devDependencies]).toBe(version);
    }
    // esbuild for `npm run bundle`, at the version mcp-gen's own bundle tests and benchmarks use.
    for (const [name, version] of Object.entries(BUNDLE_DEPENDENCIES)) {
      expect(rootPackage.devDependencies[name as keyof typeof rootPackage.devDependencies]).toBe(version);
    }
    expect(pkg.devDependencies).toEqual({ ...BUILD_DEPENDENCIES, ...BUNDLE_DEPENDENCIES });
    expect(pkg.scripts['build']).toBe('tsc -b');
    expect(pkg.scripts['bundle']).toBe('tsc -b && node generated/bundle.mjs');
    expect(packageName('My Server!')).toBe('my-server');
    expect(packageName('***')).toBe('mcp-server');
  });
});

describe('merge insertions', () => {
  const insert = (text: string, entries: string[]): string => {
    const object = exportedObject(parse(text), 'x');
    if (!object) throw new Error('no object');
    const insertion = propertyInsertion(object, entries);
    return insertion ? applyInsertions(text, [insertion]) : text;
  };

  it('go last after a trailing comma, first without one, inside an empty object', () => {
    expect(insert('const x = {\n  a: 1,\n};\n', ['b: 2'])).toBe('const x = {\n  a: 1,\n  b: 2,\n};\n');
    expect(insert('const x = {\n    a: 1\n};\n', ['b: 2'])).toBe('const x = {\n    b: 2,\n    a: 1\n};\n');
    expect(insert('const x = {};\n', ['b: 2'])).toBe('const x = {\n  b: 2,\n};\n');
    expect(insert('const x = { a: 1 } satisfies object;\n', ['b: 2'])).toBe('const x = {\n  b: 2, a: 1 } satisfies object;\n');
  });

  it('indent multi-line entries like their neighbours', () => {
    expect(insert('const x = {\n\ta: 1,\n};\n', ['b: () => {\n  return 2;\n}'])).toBe(
      'const x = {\n\ta: 1,\n\tb: () => {\n\t  return 2;\n\t},\n};\n',
    );
  });
});
