import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft07 from 'ajv';
import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { REF_LIMITS } from '../../src/load/manifest-refs.js';
import { brief, problemsOf, tempProject } from './helpers.js';

const server = 'server: { name: s, version: "1" }\n';

/** A manifest with one tool whose inputSchema is `input` (YAML flow text). */
function oneTool(input: string): string {
  return `${server}tools:\n  - name: t\n    inputSchema: ${input}\n`;
}

describe('the $ref sandbox', () => {
  test('a symbolic link that leads out of the manifest folder is caught', async () => {
    const root = await tempProject({
      'project/manifest.yaml': oneTool("{ type: object, properties: { a: { $ref: './schemas/linked.json' } } }"),
      'secret/data.json': '{ "type": "string" }',
    });
    await mkdir(path.join(root, 'project/schemas'));
    await symlink(path.join(root, 'secret/data.json'), path.join(root, 'project/schemas/linked.json'));
    const problems = await problemsOf(path.join(root, 'project/manifest.yaml'));
    expect(problems.map(brief)).toEqual([
      "4:59 /tools/0/inputSchema/properties/a/$ref $ref './schemas/linked.json' leaves the manifest's folder through a symbolic link",
    ]);
    // The user may opt in.
    const { model } = await loadManifest(path.join(root, 'project/manifest.yaml'), { allowOutside: true });
    expect(model.tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/linked' } },
      $defs: { linked: { type: 'string' } },
    });
  });

  test('a symlinked folder that leads out is caught too', async () => {
    const root = await tempProject({
      'project/manifest.yaml': oneTool("{ type: object, properties: { a: { $ref: './shared/x.json' } } }"),
      'elsewhere/x.json': '{ "type": "string" }',
    });
    await symlink(path.join(root, 'elsewhere'), path.join(root, 'project/shared'));
    const problems = await problemsOf(path.join(root, 'project/manifest.yaml'));
    expect(problems.map((d) => d.message)).toEqual(["$ref './shared/x.json' leaves the manifest's folder through a symbolic link"]);
  });

  test('../ is refused without touching the file, and allowed with allowOutside', async () => {
    const root = await tempProject({
      'project/manifest.yaml': oneTool("{ $ref: '../common/input.yaml' }"),
      'common/input.yaml': 'type: object\nproperties:\n  q: { type: string }\n',
    });
    const problems = await problemsOf(path.join(root, 'project/manifest.yaml'));
    expect(problems.map(brief)).toEqual(["4:26 /tools/0/inputSchema/$ref $ref '../common/input.yaml' leaves the manifest's folder"]);
    const { model } = await loadManifest(path.join(root, 'project/manifest.yaml'), { allowOutside: true });
    expect(model.tools[0]!.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
  });

  test('network and other schemes are never followed, anchors are not supported', async () => {
    const root = await tempProject({
      'manifest.yaml': oneTool(
        "{ type: object, properties: { a: { $ref: 'http://example.com/a.json' }, b: { $ref: 'file:///etc/passwd' }, c: { $ref: '#anchor' } } }",
      ),
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map((d) => d.message)).toEqual([
      "$ref 'http://example.com/a.json' points to the network, which mcp-gen never reads",
      "$ref 'file:///etc/passwd' uses an unsupported URI scheme",
      "$ref '#anchor' uses an anchor, which is not supported",
    ]);
  });

  test('a missing file and a missing pointer inside a file are both reported', async () => {
    const root = await tempProject({
      'manifest.yaml': oneTool("{ type: object, properties: { a: { $ref: './nope.json' }, b: { $ref: './defs.yaml#/Missing' } } }"),
      'defs.yaml': 'Present: { type: string }\n',
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map((d) => d.message)).toEqual([
      "$ref './nope.json' points to a file that does not exist",
      "$ref './defs.yaml#/Missing' points to nothing: the file has no /Missing",
    ]);
  });

  test('syntax errors in a referenced file are reported in that file', async () => {
    const root = await tempProject({
      'manifest.yaml': oneTool("{ type: object, properties: { a: { $ref: './bad.json' } } }"),
      'bad.json': '{\n  "type": "string",\n}\n',
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'bad.json', line: 3, column: 1 });
  });
});

describe('bundling', () => {
  test('cycles across files end in self-contained recursive definitions', async () => {
    const root = await tempProject({
      'manifest.yaml': oneTool("{ type: object, properties: { person: { $ref: './person.json' } } }"),
      'person.json': JSON.stringify({ type: 'object', properties: { name: { type: 'string' }, employer: { $ref: './company.json' } } }),
      'company.json': JSON.stringify({ type: 'object', properties: { staff: { type: 'array', items: { $ref: './person.json' } } } }),
    });
    const { model } = await loadManifest(path.join(root, 'manifest.yaml'));
    const schema = model.tools[0]!.inputSchema;
    expect(schema).toEqual({
      type: 'object',
      properties: { person: { $ref: '#/$defs/person' } },
      $defs: {
        company: { type: 'object', properties: { staff: { type: 'array', items: { $ref: '#/$defs/person' } } } },
        person: { type: 'object', properties: { name: { type: 'string' }, employer: { $ref: '#/$defs/company' } } },
      },
    });
    const validate = new Ajv2020.default().compile(schema);
    expect(validate({ person: { name: 'a', employer: { staff: [{ name: 'b' }] } } })).toBe(true);
    expect(validate({ person: { name: 'a', employer: { staff: [{ name: 2 }] } } })).toBe(false);
  });

  test('names that clash get a deterministic suffix, and a tool schema keeps its own $defs', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        server,
        'tools:',
        '  - name: t',
        '    inputSchema:',
        '      type: object',
        '      properties:',
        "        a: { $ref: '#/$defs/Item' }",
        "        b: { $ref: './other.yaml#/$defs/Item' }",
        "        c: { $ref: '#/$defs/Local' }",
        '      $defs:',
        '        Local: { type: boolean }',
        '$defs:',
        '  Item: { type: string }',
        '',
      ].join('\n'),
      'other.yaml': '$defs:\n  Item: { type: integer }\n',
    });
    const { model } = await loadManifest(path.join(root, 'manifest.yaml'));
    expect(model.tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/Item' }, b: { $ref: '#/$defs/Item_2' }, c: { $ref: '#/$defs/Local' } },
      $defs: { Local: { type: 'boolean' }, Item: { type: 'string' }, Item_2: { type: 'integer' } },
    });
  });

  test('a draft-07 tool schema is bundled into definitions and compiled as draft-07', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        server,
        'tools:',
        '  - name: t',
        '    inputSchema:',
        "      $schema: 'http://json-schema.org/draft-07/schema#'",
        '      type: object',
        '      properties:',
        // Tuple `items` is draft-07 only: 2020-12 would reject this schema.
        "        pair: { type: array, items: [{ type: string }, { $ref: '#/$defs/N' }] }",
        '$defs:',
        '  N: { type: number }',
        '',
      ].join('\n'),
    });
    const { model } = await loadManifest(path.join(root, 'manifest.yaml'));
    // The wire keeps the user's dialect...
    const schema = (model.tools[0]!.wire as { inputSchema: object }).inputSchema;
    expect(schema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { $ref: '#/definitions/N' }] } },
      definitions: { N: { type: 'number' } },
    });
    const validate = new AjvDraft07.default().compile(schema);
    expect(validate({ pair: ['a', 1] })).toBe(true);
    expect(validate({ pair: ['a', 'b'] })).toBe(false);
    // ...and the schema types and validators are made from is its 2020-12 equivalent (one dialect
    // for the whole manifest, whatever it mixes; issue 6 fuzzing).
    const converted = model.tools[0]!.inputSchema;
    expect(converted).toEqual({
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { $ref: '#/definitions/N' }] } },
      definitions: { N: { type: 'number' } },
    });
    const validate2020 = new Ajv2020.default({ strict: false }).compile(converted);
    expect(validate2020({ pair: ['a', 1] })).toBe(true);
    expect(validate2020({ pair: ['a', 'b'] })).toBe(false);
  });

  test('hostile property names stay data: __proto__ and constructor survive as own keys', async () => {
    const root = await tempProject({
      // Written as text: an object literal would turn "__proto__" into a prototype change.
      'manifest.json':
        '{"server": {"name": "s", "version": "1"}, "tools": [{"name": "t", "inputSchema": {"type": "object", ' +
        '"properties": {"__proto__": {"type": "string"}, "constructor": {"type": "number"}}, "required": ["__proto__"]}}]}',
    });
    const { model } = await loadManifest(path.join(root, 'manifest.json'));
    const properties = model.tools[0]!.inputSchema.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(JSON.stringify(model.tools[0]!.wire.inputSchema)).toContain('"__proto__":{"type":"string"}');
  });

  test("'#' inside a tool schema is the tool schema itself; refs into it stay local", async () => {
    const root = await tempProject({
      'manifest.yaml': oneTool("{ type: object, properties: { next: { $ref: '#' }, copy: { $ref: '#/properties/name' }, name: { type: string } } }"),
    });
    const { model } = await loadManifest(path.join(root, 'manifest.yaml'));
    const schema = model.tools[0]!.inputSchema;
    expect(schema).toEqual({
      type: 'object',
      properties: { next: { $ref: '#' }, copy: { $ref: '#/properties/name' }, name: { type: 'string' } },
    });
    const validate = new Ajv2020.default().compile(schema);
    expect(validate({ name: 'a', next: { name: 'b', copy: 'c' } })).toBe(true);
    expect(validate({ next: { copy: 1 } })).toBe(false);
  });

  test("'#' in a shared definition would mean the whole manifest, and is refused", async () => {
    const root = await tempProject({
      'manifest.yaml': `${oneTool("{ type: object, properties: { a: { $ref: '#/$defs/A' } } }")}$defs:\n  A: { type: array, items: { $ref: '#' } }\n`,
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual(["6:36 /$defs/A/items/$ref $ref '#' refers to the whole manifest"]);
  });

  test('a referenced file in another dialect than the tool schema gets a warning', async () => {
    const root = await tempProject({
      'manifest.yaml': oneTool("{ $ref: './input.json' }"),
      'input.json': '{\n  "$schema": "http://json-schema.org/draft-07/schema#",\n  "type": "object"\n}\n',
    });
    const { model, warnings } = await loadManifest(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(model.tools[0]!.inputSchema).toEqual({ type: 'object' });
    expect(warnings.map((w) => `${w.file}:${w.line}:${w.column} ${w.message}`)).toEqual([
      "input.json:2:3 this file's dialect differs from the tool schema that uses it (2020-12), which decides",
    ]);
  });

  test('depth is bounded', async () => {
    let nested = '{ "type": "string" }';
    for (let i = 0; i < 300; i++) nested = `{ "type": "object", "properties": { "n": ${nested} } }`;
    const root = await tempProject({ 'manifest.yaml': oneTool("{ $ref: './deep.json' }"), 'deep.json': nested });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map((d) => d.message)).toEqual(['schema nests deeper than 200 levels']);
    expect(problems[0]!.file).toBe(path.join(root, 'deep.json'));
  });

  test('size is bounded: schema nodes per tool and files read', async () => {
    const saved = { ...REF_LIMITS };
    try {
      REF_LIMITS.maxNodesPerSchema = 20;
      const big = JSON.stringify({ type: 'object', properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: 'string' }])) });
      let root = await tempProject({ 'manifest.yaml': oneTool("{ $ref: './big.json' }"), 'big.json': big });
      expect((await problemsOf(path.join(root, 'manifest.yaml'))).map(brief)).toEqual([
        '4:18 /tools/0/inputSchema schema is too large: more than 20 nodes after bundling its references',
      ]);
      Object.assign(REF_LIMITS, saved);

      REF_LIMITS.maxFiles = 2;
      const chain: Record<string, string> = { 'manifest.yaml': oneTool("{ type: object, properties: { a: { $ref: './s0.json' } } }") };
      for (let i = 0; i < 5; i++) chain[`s${i}.json`] = JSON.stringify({ type: 'array', items: { $ref: `./s${i + 1}.json` } });
      chain['s5.json'] = '{ "type": "string" }';
      root = await tempProject(chain);
      const problems = await problemsOf(path.join(root, 'manifest.yaml'));
      expect(problems.map((d) => d.message)).toEqual(["$ref './s2.json' would read more than 2 schema files"]);
    } finally {
      Object.assign(REF_LIMITS, saved);
    }
  });

  test('YAML anchors and aliases resolve, and positions lead to the anchored text', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        'server: { name: s, version: "1" }',
        'tools:',
        '  - name: a',
        '    inputSchema: &common',
        '      type: object',
        '      properties:',
        '        id: { type: string, x-mcp-header: "bad header" }',
        '  - name: b',
        '    inputSchema: *common',
        '',
      ].join('\n'),
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual([
      '7:43 /tools/0/inputSchema/properties/id/x-mcp-header x-mcp-header "bad header" is not a valid header name',
      '7:43 /tools/1/inputSchema/properties/id/x-mcp-header x-mcp-header "bad header" is not a valid header name',
    ]);
  });
});
