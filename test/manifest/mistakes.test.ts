import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDiagnostic } from '../../src/load/diagnostics.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, fixture, problemsOf, tempProject } from './helpers.js';

describe('a manifest with many mistakes', async () => {
  const problems = await problemsOf(fixture('mistakes/manifest.yaml'), { displayPath: 'mistakes/manifest.yaml' });

  test('reports every one of them at once, each at its line:column and pointer, in file order', () => {
    const manifest = problems.filter((d) => d.file === 'mistakes/manifest.yaml').map(brief);
    expect(manifest).toEqual([
      "2:3 /server/version missing required property 'version'",
      "3:3 /server/titel unknown property 'titel'",
      "5:26 /protocol/versions/1 '2099-01-01' is not a supported protocol revision",
      "6:1 /tool unknown property 'tool'",
      "9:11 /tools/0/name 'get weather' is not a valid tool name",
      '16:47 /tools/1/inputSchema/properties/region/x-mcp-header x-mcp-header "Region:Primary" is not a valid header name',
      "18:50 /tools/1/inputSchema/properties/zoneAgain/x-mcp-header x-mcp-header 'ZONE' is already used by property 'zone'",
      "19:48 /tools/1/inputSchema/properties/filters/x-mcp-header x-mcp-header on property 'filters', which is not a string, number, integer or boolean",
      "20:11 /tools/2/name duplicate tool name 'lookup' (first at tools/1, line 12)",
      "22:13 /tools/2/inputSchema/type 'string' must be 'object'",
      "27:25 /tools/3/inputSchema/properties/escape/$ref $ref '../outside.json' leaves the manifest's folder",
      "28:25 /tools/3/inputSchema/properties/remote/$ref $ref 'https://example.com/schema.json' points to the network, which mcp-gen never reads",
      "29:26 /tools/3/inputSchema/properties/missing/$ref $ref '#/$defs/Nope' points to nothing",
      "35:42 /tools/4/inputSchema/properties/count/minimum inputSchema is not a valid JSON Schema: 'minimum' must be number",
      "39:10 /resources/0/uri 'not a uri' is not a valid URI",
      "42:18 /resourceTemplates/0/uriTemplate URI template 'files://{path' has an unmatched '{' at character 9",
      "48:15 /prompts/0/arguments/1/name duplicate argument name 'text' (first at prompts/0/arguments/0, line 47)",
      "49:11 /prompts/1/name duplicate prompt name 'summarize' (first at prompts/0, line 45)",
    ]);
  });

  test('a problem inside a referenced file points into that file, after the manifest problems', () => {
    expect(problems.at(-1)).toEqual({
      file: 'mistakes/schemas/item.json',
      line: 5,
      column: 24,
      pointer: '/properties/owner/$ref',
      message: "$ref '#/$defs/Missing' points to nothing",
    });
  });

  test('hints say how to fix it', () => {
    const hint = (pointer: string): string | undefined => problems.find((d) => d.pointer === pointer)?.hint;
    expect(hint('/tools/0/name')).toBe('use 1–128 characters without spaces or control characters (A–Z a–z 0–9 _ . - recommended)');
    expect(hint('/tool')).toBe("did you mean 'tools'?");
    expect(hint('/server/titel')).toBe("did you mean 'title'?");
    expect(hint('/tools/3/inputSchema/properties/escape/$ref')).toContain('--allow-outside-refs');
    expect(formatDiagnostic(problems.find((d) => d.pointer === '/tools/0/name')!)).toBe(
      "mistakes/manifest.yaml:9:11: 'get weather' is not a valid tool name (at /tools/0/name) — use 1–128 characters without spaces or control characters (A–Z a–z 0–9 _ . - recommended)",
    );
  });

  test('a schema whose references failed is not also reported as failing to compile', () => {
    expect(problems.filter((d) => d.pointer.startsWith('/tools/3/')).map((d) => d.message)).not.toContainEqual(expect.stringContaining('compile'));
  });
});

describe('x-mcp-header placement', () => {
  test('only on properties reached through properties alone, and only in inputSchema', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        'server: { name: s, version: "1" }',
        'tools:',
        '  - name: t',
        '    inputSchema:',
        '      type: object',
        '      properties:',
        '        nested: { type: object, properties: { id: { type: string, x-mcp-header: Id } } }',
        '        list: { type: array, items: { type: string, x-mcp-header: Item } }',
        "        shared: { $ref: '#/$defs/Shared' }",
        '        choice: { anyOf: [{ type: string, x-mcp-header: Choice }] }',
        '        bare: { x-mcp-header: Bare }',
        '        empty: { type: string, x-mcp-header: "" }',
        '    outputSchema:',
        '      type: object',
        '      properties:',
        '        out: { type: string, x-mcp-header: Out }',
        '$defs:',
        '  Shared: { type: string, x-mcp-header: Shared }',
        '',
      ].join('\n'),
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    const placement = 'x-mcp-header must sit on a property reached from the root through properties alone';
    expect(problems.map(brief)).toEqual([
      `8:67 /tools/0/inputSchema/properties/list/items/x-mcp-header ${placement}`,
      `10:57 /tools/0/inputSchema/properties/choice/anyOf/0/x-mcp-header ${placement}`,
      "11:31 /tools/0/inputSchema/properties/bare/x-mcp-header x-mcp-header on property 'bare', which is not a string, number, integer or boolean",
      '12:46 /tools/0/inputSchema/properties/empty/x-mcp-header x-mcp-header "" is not a valid header name',
      '16:44 /tools/0/outputSchema/properties/out/x-mcp-header x-mcp-header only applies to inputSchema properties',
      // Bundled into the tool's $defs, the shared definition is no longer reached through properties.
      `18:41 /$defs/Shared/x-mcp-header ${placement}`,
    ]);
  });

  test('a nested property reached through properties is fine, and headers are listed by path', async () => {
    const root = await tempProject({
      'manifest.yaml':
        'server: { name: s, version: "1" }\ntools:\n  - name: t\n    inputSchema: { type: object, properties: { a: { type: object, properties: { id: { type: integer, x-mcp-header: Id } } } } }\n',
    });
    const { model } = await loadManifest(path.join(root, 'manifest.yaml'));
    expect(model.tools[0]!.headers).toEqual([{ path: ['a', 'id'], header: 'Id' }]);
  });
});

describe('resources, templates and schemas that do not compile', () => {
  test('URIs unique and valid; templates well-formed and servable', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        'server: { name: s, version: "1" }',
        'resources:',
        '  - { uri: "app://one", name: one }',
        '  - { uri: "app://one", name: two }',
        '  - { uri: "relative/path", name: three }',
        'resourceTemplates:',
        '  - { uriTemplate: "app://a/{id}/{+rest}", name: fine }',
        '  - { uriTemplate: "app://b/{?query}", name: query }',
        '  - { uriTemplate: "app://c/static", name: static }',
        '  - { uriTemplate: "app://d/{id}/{id}", name: twice }',
        '  - { uriTemplate: "app://e/{bad name}", name: spaced }',
        '  - { uriTemplate: "app://f/id}", name: stray }',
        '',
      ].join('\n'),
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual([
      "4:12 /resources/1/uri duplicate resource URI 'app://one' (first at resources/0, line 3)",
      "5:12 /resources/2/uri 'relative/path' is not a valid URI",
      "8:20 /resourceTemplates/1/uriTemplate URI template 'app://b/{?query}': '{?query}' is not supported",
      "9:20 /resourceTemplates/2/uriTemplate URI template 'app://c/static' has no {variables}",
      "10:20 /resourceTemplates/3/uriTemplate URI template 'app://d/{id}/{id}' uses {id} twice",
      "11:20 /resourceTemplates/4/uriTemplate URI template 'app://e/{bad name}': '{bad name}' is not a well-formed expression",
      "12:20 /resourceTemplates/5/uriTemplate URI template 'app://f/id}' has an unmatched '}' at character 11",
    ]);
  });

  test('completion enums for a variable the template does not have (issue 14 item 5)', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        'server: { name: s, version: "1" }',
        'resourceTemplates:',
        '  - uriTemplate: "app://a/{id}"',
        '    name: fine',
        '    variables: { id: { enum: [a, b] }, idd: { enum: [c] } }',
        'prompts:',
        '  - name: p',
        '    arguments: [{ name: style, enum: [plain, bold] }]',
        '',
      ].join('\n'),
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual(["5:45 /resourceTemplates/0/variables/idd 'idd' is not a variable of app://a/{id}"]);
  });

  test('an unknown format stops compilation and points at the format', async () => {
    const root = await tempProject({
      'manifest.yaml':
        'server: { name: s, version: "1" }\ntools:\n  - name: t\n    inputSchema:\n      type: object\n      properties:\n        phone: { type: string, format: phone }\n',
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual(["7:40 /tools/0/inputSchema/properties/phone/format inputSchema does not compile: unknown format 'phone'"]);
  });

  test('an invalid regular expression is reported with every other one', async () => {
    const root = await tempProject({
      'manifest.yaml':
        "server: { name: s, version: \"1\" }\ntools:\n  - name: t\n    inputSchema:\n      type: object\n      properties:\n        a: { type: string, pattern: '([' }\n      patternProperties:\n        '(': { type: string }\n",
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map((d) => `${d.line}:${d.column} ${d.pointer}`)).toEqual([
      '7:37 /tools/0/inputSchema/properties/a/pattern',
      '9:9 /tools/0/inputSchema/patternProperties/(',
    ]);
    expect(problems[0]!.message).toMatch(/^pattern '\(\[' is not a valid regular expression: /);
  });
});
