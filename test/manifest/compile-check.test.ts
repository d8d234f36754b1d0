/**
 * Every kind of problem the tool-schema compile check finds, found still now that a walk
 * (src/load/compile-free.ts) stands in for compiling the schemas it can vouch for. Each case is a
 * schema the walk must NOT vouch for: were it to, or were the check gone, the case would pass silently.
 */
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft07 from 'ajv';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { manifestArbitrary } from '../fuzz/arbitraries.js';
import { isDraft07 } from '../../src/load/manifest-refs.js';
import { compilesCleanly } from '../../src/load/compile-free.js';
import { addStandardFormats } from '../../src/schema/add-formats.js';
import { EXTRA_FORMATS } from '../../src/schema/formats.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, problemsOf, tempProject } from './helpers.js';

const server = 'server: { name: s, version: "1" }\n';

/** A manifest with one tool whose inputSchema is `input` (YAML flow text). */
const oneTool = (input: string): string => `${server}tools:\n  - name: t\n    inputSchema: ${input}\n`;

async function problems(input: string): Promise<string[]> {
  const root = await tempProject({ 'manifest.yaml': oneTool(input) });
  return (await problemsOf(path.join(root, 'manifest.yaml'))).map(brief);
}

async function warnings(input: string): Promise<string[]> {
  const root = await tempProject({ 'manifest.yaml': oneTool(input) });
  return (await loadManifest(path.join(root, 'manifest.yaml'))).warnings.map(brief);
}

describe('the tool-schema check still reports', () => {
  test('meta-schema errors, with their pointer', async () => {
    expect(await problems('{ type: object, properties: { a: { type: string, minLength: "3" } } }')).toEqual([
      "4:78 /tools/0/inputSchema/properties/a/minLength inputSchema is not a valid JSON Schema: 'minLength' must be integer",
    ]);
  });

  test('an unknown format', async () => {
    expect(await problems('{ type: object, properties: { a: { type: string, format: colour } } }')).toEqual([
      "4:75 /tools/0/inputSchema/properties/a/format inputSchema does not compile: unknown format 'colour'",
    ]);
  });

  test('an empty enum, which passes the meta-schema but does not compile', async () => {
    expect(await problems('{ type: object, properties: { a: { enum: [] } } }')).toEqual([
      '4:18 /tools/0/inputSchema inputSchema does not compile: enum must have non-empty array',
    ]);
  });

  test('references that loop without ever describing a value', async () => {
    expect(await problems('{ type: object, properties: { a: { $ref: "#/$defs/x" } }, $defs: { x: { $ref: "#/$defs/y" }, y: { $ref: "#/$defs/x" } } }')).toEqual([
      '4:18 /tools/0/inputSchema inputSchema does not compile: its references loop without ever describing a value',
    ]);
  });

  test('a reference to something that is not a schema: compiled, and ajv has its say', async () => {
    // ajv reads the string 'string' as a schema whose keywords are its characters' indexes.
    const found = await warnings('{ type: object, properties: { a: { type: string }, b: { $ref: "#/properties/a/type" } } }');
    expect(found).toEqual([0, 1, 2, 3, 4, 5].map((i) => `4:5 /tools/0/inputSchema inputSchema: unknown keyword '${i}' is ignored`));
  });

  test('unknown keywords, with a suggestion', async () => {
    expect(await warnings('{ type: object, properties: { a: { type: string, maxlength: 3 } } }')).toEqual([
      "4:67 /tools/0/inputSchema/properties/a/maxlength inputSchema: unknown keyword 'maxlength' is ignored",
    ]);
  });

  test('an unknown keyword nested in a definition the bundler copied in', async () => {
    const manifest = `${server}$defs:\n  Item: { type: object, properties: { n: { type: integer, minimun: 1 } } }\ntools:\n  - name: t\n    inputSchema: { type: object, properties: { item: { $ref: "#/$defs/Item" } } }\n`;
    const root = await tempProject({ 'manifest.yaml': manifest });
    const { warnings: found } = await loadManifest(path.join(root, 'manifest.yaml'));
    expect(found.map(brief)).toEqual(["3:59 /$defs/Item/properties/n/minimun inputSchema: unknown keyword 'minimun' is ignored"]);
  });

  test('strict-mode notes: if without then or else, a property its patternProperties also match', async () => {
    expect(await warnings('{ type: object, if: { required: [a] } }')).toEqual([
      '4:5 /tools/0/inputSchema inputSchema: "if" without "then" and "else" is ignored',
    ]);
    const found = await warnings('{ type: object, properties: { ab: { type: string } }, patternProperties: { "^a": { type: string } } }');
    expect(found).toEqual(['4:5 /tools/0/inputSchema inputSchema: property ab matches pattern ^a (use allowMatchingProperties)']);
  });

  test('a draft-07 schema using a 2020-12 keyword: unknown to draft-07', async () => {
    const found = await warnings('{ $schema: "http://json-schema.org/draft-07/schema#", type: object, properties: { a: { type: array, prefixItems: [{ type: string }] } } }');
    expect(found).toEqual(["4:118 /tools/0/inputSchema/properties/a/prefixItems inputSchema: unknown keyword 'prefixItems' is ignored"]);
  });
});

describe('schemas the walk vouches for', () => {
  test('load without problems or warnings, recursive references included', async () => {
    const input = '{ type: object, properties: { tree: { $ref: "#/$defs/Node" }, when: { type: string, format: date-time }, code: { type: string, pattern: "^[a-z]+$" } }, $defs: { Node: { type: object, properties: { children: { type: array, items: { $ref: "#/$defs/Node" } } } } }, additionalProperties: false }';
    expect(await warnings(input)).toEqual([]);
  });
});

describe('compilesCleanly', () => {
  // What a 2020-12 ajv with the standard formats knows, as the check's own compiler does.
  const ajv = new Ajv2020.default({ strict: 'log', logger: false });
  addStandardFormats(ajv, Object.fromEntries(Object.keys(EXTRA_FORMATS).map((f) => [f, () => true])));
  const knows = { keyword: (k: string) => Boolean(ajv.RULES.keywords[k]), format: (f: string) => Object.hasOwn(ajv.formats, f) };

  test('vouches for the everyday tool schema, so that it is not compiled', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid', pattern: '^[a-f0-9-]+$', description: 'x' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 5, uniqueItems: true },
        node: { $ref: '#/$defs/Node' },
        any: true,
      },
      required: ['id'],
      additionalProperties: false,
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } }, 'x-note': 1 } },
    };
    expect(compilesCleanly(schema, knows)).toBe(true);
  });

  test.each([
    ['an unknown keyword', { type: 'object', maxlength: 1 }],
    ['an unknown format', { type: 'string', format: 'colour' }],
    ['an empty enum', { enum: [] }],
    ['a pattern that is no regular expression', { type: 'string', pattern: '(' }],
    ['a reference chain', { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { type: 'string' } } }],
    ['a reference into properties', { properties: { a: { type: 'string' }, b: { $ref: '#/properties/a' } } }],
    ['if without then', { if: { required: ['a'] } }],
    ['patternProperties', { patternProperties: { '^a': { type: 'string' } } }],
    ['a nested $schema', { properties: { a: { $schema: 'https://json-schema.org/draft/2020-12/schema' } } }],
    ['a tuple', { items: [{ type: 'string' }] }],
  ])('leaves %s to the compiler', (_, schema) => {
    expect(compilesCleanly(schema as Record<string, unknown>, knows)).toBe(false);
  });
});

describe('compilesCleanly on random schemas (the generator fuzz suite\'s)', () => {
  /** ajv as the check compiles: strict-mode notes logged, not thrown. */
  const compilerFor = (dialect: 'draft-07' | '2020-12', notes: string[]): InstanceType<typeof Ajv2020.default> | InstanceType<typeof AjvDraft07.default> => {
    const options = { strict: 'log' as const, strictTypes: false, strictTuples: false, strictRequired: false, logger: { log: () => undefined, warn: (m: unknown) => notes.push(String(m)), error: (m: unknown) => notes.push(String(m)) } };
    const ajv = dialect === 'draft-07' ? new AjvDraft07.default(options) : new Ajv2020.default(options);
    addStandardFormats(ajv, Object.fromEntries(Object.keys(EXTRA_FORMATS).map((f) => [f, () => true])));
    ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
    return ajv;
  };

  test('whatever it vouches for compiles with no note but on extension keywords', () => {
    let vouched = 0;
    fc.assert(
      fc.property(manifestArbitrary, (generated) => {
        // As the loader sees it: parsed from JSON text.
        const manifest = JSON.parse(JSON.stringify(generated)) as { tools: Record<string, unknown>[] };
        for (const tool of manifest.tools) {
          for (const key of ['inputSchema', 'outputSchema']) {
            const schema = tool[key];
            if (typeof schema !== 'object' || schema === null) continue;
            const notes: string[] = [];
            const dialect = isDraft07(schema) ? 'draft-07' : '2020-12';
            const ajv = compilerFor(dialect, notes);
            if (!ajv.validateSchema(schema)) continue;
            const knows = { keyword: (k: string) => Boolean(ajv.RULES.keywords[k]), format: (f: string) => Object.hasOwn(ajv.formats, f) };
            if (!compilesCleanly(schema as Record<string, unknown>, knows)) continue;
            vouched++;
            ajv.compile(schema);
            expect(notes.filter((n) => !/unknown keyword: "x-/.test(n))).toEqual([]);
          }
        }
      }),
      { numRuns: 40, seed: 20261127 },
    );
    expect(vouched).toBeGreaterThan(0);
  });
});
