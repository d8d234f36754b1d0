/**
 * A warm run reuses the bundled schemas of the tools that did not change (bundled-tools-memo.ts):
 * the document it loads is the one a cold load gives, a changed tool is bundled again, and a tool
 * that has something to report, refers to another file, or holds (or sits in a manifest around
 * it holding) values JSON text cannot carry exactly, is never reused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/load/diagnostics.js';
import { readManifest } from '../../src/load/manifest.js';
import { validateAgainstManifestSchema } from '../../src/load/manifest-schema.js';
import { memoryRecall } from '../support/memory-recall.js';
import type { Recall } from '../../src/load/bundled-tools-memo.js';
import { schemaDigest } from '../../src/schema/digest.js';
import { sha256Hex } from '../../src/schema/sha256.js';
import type { SchemaObject } from '../../src/schema/keywords.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-bundled-memo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function manifest(tools: object[], extra: object = {}): object {
  return {
    server: { name: 'memo', version: '1.0.0' },
    $defs: { unit: { type: 'string', enum: ['c', 'f'] } },
    ...extra,
    tools,
  };
}

const tool = (name: string, properties: object = { q: { type: 'string' } }, more: object = {}): object => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object', properties: { ...properties, unit: { $ref: '#/$defs/unit' } } },
  outputSchema: { type: 'object', properties: { r: { type: 'number' } } },
  ...more,
});

async function load(file: string, content: object | string, recall?: Recall) {
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return readManifest(file, recall ? { recall } : {});
}

describe('bundled tools kept from the last run', () => {
  it('give the document a cold load gives, and a changed tool is bundled again', async () => {
    const file = join(dir, 'm.json');
    const recall = memoryRecall('bundled-tool');
    const before = manifest([tool('a'), tool('b'), tool('c')]);
    const cold = await load(file, before, recall);
    expect(recall.reused).toBe(0);
    const warm = await load(file, before, recall);
    expect(recall.reused).toBe(3);
    expect(warm.document).toEqual(cold.document);

    const after = manifest([tool('a'), tool('b', { q: { type: 'integer', minimum: 1 } }), tool('c')]);
    recall.reused = 0;
    const changed = await load(file, after, recall);
    expect(recall.reused).toBe(2);
    expect(changed.document).toEqual((await load(file, after)).document);
  });

  it('keep a tool that only gained shared definitions as that recipe, and any other whole, both to the same document', async () => {
    const file = join(dir, 'recipe.json');
    const recall = memoryRecall('bundled-tool');
    const ownDefs = { ...tool('own'), inputSchema: { type: 'object', properties: { u: { $ref: '#/$defs/unit' }, l: { $ref: '#/$defs/local' } }, $defs: { local: { type: 'integer' } } } };
    const content = manifest([tool('plain'), ownDefs]);
    const cold = await load(file, content, recall);
    const values = [...recall.store.values()];
    expect(values).toHaveLength(2);
    // The plain tool's input is kept as the definitions it gained, its output as written: neither whole.
    expect(values.filter((v) => v.includes('"added"') && v.includes('"asWritten"') && !v.includes('"whole"'))).toHaveLength(1);
    // The other's input has definitions of its own besides: kept whole.
    expect(values.filter((v) => v.includes('"whole"'))).toHaveLength(1);
    const warm = await load(file, content, recall);
    expect(recall.reused).toBe(2);
    expect(warm.document).toEqual(cold.document);
    expect(JSON.stringify(warm.document)).toBe(JSON.stringify(cold.document));
    // Each rebuilt schema comes with the digest of its text, kept with it: the emitters' keys use it unwritten.
    const tools = (warm.document as { tools: Record<string, SchemaObject>[] }).tools;
    const schemas = tools.flatMap((t) => [t['inputSchema'], t['outputSchema']]).filter((x): x is SchemaObject => x !== undefined);
    expect(schemas).toHaveLength(4);
    for (const schema of schemas) {
      const text = JSON.stringify(schema);
      // Changed behind the memo's back (never done outside this test), the digest stays the kept one: it was not taken again.
      schema['x-probe'] = true;
      expect(schemaDigest(schema)).toBe(sha256Hex(text));
    }
    for (const value of recall.store.values()) expect(Object.keys((JSON.parse(value) as { digests: object }).digests)).toEqual(['inputSchema', 'outputSchema']);
  });

  it('never keep a tool that refers into another tool: that tool may change alone', async () => {
    const file = join(dir, 'cross.json');
    const recall = memoryRecall('bundled-tool');
    const borrower = { ...tool('borrower'), inputSchema: { type: 'object', properties: { q: { $ref: '#/tools/0/inputSchema/properties/q' } } } };
    const before = manifest([tool('lender'), borrower]);
    await load(file, before, recall);
    // The lender alone is kept.
    expect(recall.store.size).toBe(1);
    const after = manifest([tool('lender', { q: { type: 'integer' } }), borrower]);
    const warm = await load(file, after, recall);
    expect(warm.document).toEqual((await load(file, after)).document);
    expect(JSON.stringify(warm.document)).toContain('"integer"');
  });

  it('are keyed by the manifest around the tools too: another shared definition bundles every tool again', async () => {
    const file = join(dir, 'defs.json');
    const recall = memoryRecall('bundled-tool');
    await load(file, manifest([tool('a'), tool('b')]), recall);
    recall.reused = 0;
    const other = { ...manifest([tool('a'), tool('b')]), $defs: { unit: { type: 'string', enum: ['k'] } } };
    const warm = await load(file, other, recall);
    expect(recall.reused).toBe(0);
    expect(warm.document).toEqual((await load(file, other)).document);
  });

  it('keep no tool with a warning or a $ref to another file, nor one holding -0', async () => {
    const file = join(dir, 'kept.json');
    writeFileSync(join(dir, 'shared.json'), JSON.stringify({ $defs: { id: { type: 'string' } } }));
    const warned = tool('warned', { q: { type: 'string', pattern: '(a+)+$' } });
    const fileRef = tool('file_ref', { id: { $ref: 'shared.json#/$defs/id' } });
    const recall = memoryRecall('bundled-tool');
    const first = await load(file, manifest([warned, fileRef, tool('plain')]), recall);
    expect(first.warnings.length).toBeGreaterThan(0);
    expect(recall.store.size).toBe(1);
    recall.reused = 0;
    const again = await load(file, manifest([warned, fileRef, tool('plain')]), recall);
    expect(recall.reused).toBe(1);
    // What is reported is reported again.
    expect(again.warnings).toEqual(first.warnings);
    expect(again.document).toEqual(first.document);

    const zero = memoryRecall('bundled-tool');
    // JSON.stringify writes -0 as 0: the text is written by hand.
    const withZero = JSON.stringify(manifest([tool('z', { q: { type: 'number' } })])).replace('"number"}', '"number","minimum":-0}');
    expect(withZero).toContain('"minimum":-0');
    await load(file, withZero, zero);
    expect(zero.store.size).toBe(0);
  });

  it('keep the tools of a YAML manifest too, but none whose values JSON text would not give back', async () => {
    const yamlFile = join(dir, 'm.yaml');
    const text = (fallback: string, shared = 'enum: [c, f]') =>
      [
        'server: { name: memo, version: 1.0.0 }',
        '$defs:',
        `  unit: { type: string, ${shared} }`,
        'tools:',
        '  - name: plain',
        '    inputSchema: { type: object, properties: { u: { $ref: "#/$defs/unit" } } }',
        '  - name: bounded',
        `    inputSchema: { type: object, properties: { n: { type: number, default: ${fallback} } } }`,
        '',
      ].join('\n');
    const bundled = (recall: { store: Map<string, string> }) => [...recall.store.keys()].filter((key) => key.startsWith('bundled-tool\0')).length;
    const recall = memoryRecall('bundled-tool');
    const cold = await load(yamlFile, text('.inf'), recall);
    // The plain tool is kept; the one with `.inf` (JSON text would write null) is not.
    expect(bundled(recall)).toBe(1);
    const warm = await load(yamlFile, text('.inf'), recall);
    expect(recall.reused).toBe(1);
    expect(warm.document).toEqual(cold.document);
    // `null` where `.inf` was (the same JSON text): kept now, and the `.inf` tool is still not taken for it.
    await load(yamlFile, text('null'), recall);
    expect(bundled(recall)).toBe(2);
    recall.reused = 0;
    const again = await load(yamlFile, text('.inf'), recall);
    expect(recall.reused).toBe(1);
    expect(again.document).toEqual(cold.document);
    expect(Object.is((again.document as { tools: { inputSchema: { properties: { n: { default: unknown } } } }[] }).tools[1]?.inputSchema.properties.n.default, Infinity)).toBe(true);
    // Definitions around the tools with a value JSON text cannot carry: nothing is kept.
    const inexact = memoryRecall('bundled-tool');
    await load(yamlFile, text('1', 'enum: [c, f], default: .nan'), inexact);
    expect(bundled(inexact)).toBe(0);
  });

  it('spare the manifest schema the kept tools, and a changed tool that breaks it is reported as on a cold load', async () => {
    const file = join(dir, 'schema-spared.json');
    const recall = memoryRecall('bundled-tool');
    await load(file, manifest([tool('a'), tool('b'), tool('c')]), recall);
    // Tool b renamed to a name the manifest schema refuses (a space), and given an unknown field.
    const broken = manifest([tool('a'), tool('b c', undefined, { colour: 'red' }), tool('c')]);
    const cold = await load(file, broken).then(() => undefined, (error: unknown) => error);
    const warm = await load(file, broken, recall).then(() => undefined, (error: unknown) => error);
    expect(cold).toBeInstanceOf(InputError);
    expect(warm).toBeInstanceOf(InputError);
    const pointers = (error: unknown) => (error as InputError).diagnostics.map((d) => `${d.pointer} ${d.message}`);
    expect(pointers(warm)).toEqual(pointers(cold));
    expect(pointers(warm).some((p) => p.startsWith('/tools/1/name'))).toBe(true);
  });
});

describe('the manifest schema with tools known valid', () => {
  const doc = (value: object) => ({ file: 'm.json', value, locate: () => ({ line: 1, column: 1 }) });

  it('takes the stand-in for a valid tool: a valid manifest stays valid with every tool stood in', () => {
    const valid = manifest([tool('a'), tool('b')]);
    expect(validateAgainstManifestSchema(doc(valid))).toEqual([]);
    expect(validateAgainstManifestSchema(doc(valid), new Set([0, 1]))).toEqual([]);
  });

  it('reports every problem of the manifest as written once anything fails, even in a tool said to be valid', () => {
    const invalid = manifest([tool('a', undefined, { colour: 'red' }), { name: 'b' }]);
    const plain = validateAgainstManifestSchema(doc(invalid));
    expect(plain.length).toBeGreaterThanOrEqual(2);
    expect(validateAgainstManifestSchema(doc(invalid), new Set([0]))).toEqual(plain);
  });
});
