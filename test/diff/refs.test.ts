/**
 * `$ref`s in the comparison. Recursive schemas: each (old node, new node) pair is compared once,
 * so self-referencing and mutually referencing `$ref`s terminate, and each change is reported
 * once, at the first path that reaches it. File refs: bundled by the manifest loader first.
 */
import { describe, expect, it } from 'vitest';
import { compareSchemas } from '../../src/diff/schema-compare.js';
import { diffJson, manifest, tempDir, writeJson } from './helpers.js';

const P = '/tools/t/inputSchema';

function treeManifest(label: object): object {
  return manifest({
    $defs: { node: { type: 'object', properties: { label, children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    tools: [{ name: 't', inputSchema: { type: 'object', properties: { tree: { $ref: '#/$defs/node' } } } }],
  });
}

describe('mcp-gen diff: recursive $ref schemas terminate', () => {
  it('a self-referencing definition: one finding, at the first path that reaches the change', async () => {
    const dir = tempDir();
    const report = await diffJson(writeJson(dir, 'old.json', treeManifest({ type: 'string' })), writeJson(dir, 'new.json', treeManifest({ type: 'string', maxLength: 10 })));
    expect(report.findings.map((f) => [f.severity, f.pointer])).toEqual([['breaking', `${P}/properties/tree/properties/label/maxLength`]]);
  });

  it('mutually referencing definitions', async () => {
    const dir = tempDir();
    const side = (kinds: string[]) =>
      manifest({
        $defs: {
          a: { type: 'object', properties: { b: { $ref: '#/$defs/b' } } },
          b: { type: 'object', properties: { a: { $ref: '#/$defs/a' }, kind: { enum: kinds } } },
        },
        tools: [{ name: 't', inputSchema: { type: 'object', properties: { root: { $ref: '#/$defs/a' } } } }],
      });
    const report = await diffJson(writeJson(dir, 'old.json', side(['x', 'y'])), writeJson(dir, 'new.json', side(['x'])));
    expect(report.findings.map((f) => [f.severity, f.pointer])).toEqual([['breaking', `${P}/properties/root/properties/b/properties/kind/enum`]]);
  });

  it('a schema whose root refers to itself, compared directly', () => {
    const oldSchema = { type: 'object', properties: { next: { $ref: '#' }, n: { type: 'integer' } } };
    const newSchema = { type: 'object', properties: { next: { $ref: '#' }, n: { type: 'integer', minimum: 0 } } };
    const changes = compareSchemas(oldSchema, newSchema, { root: oldSchema }, { root: newSchema }, { noun: 'property' });
    expect(changes.map((c) => [c.pointer, c.input, c.output])).toEqual([['/properties/n/minimum', 'breaking', 'compatible']]);
  });

  it('refs that only point at each other (an alias loop) end, and equal loops are no change', () => {
    const loop = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, type: 'object', properties: { x: { $ref: '#/$defs/a' } } };
    const copy = structuredClone(loop);
    expect(compareSchemas(loop, copy, { root: loop }, { root: copy }, { noun: 'property' })).toEqual([]);
  });

  it('recursion through anyOf branches (matched by meaning) also ends', () => {
    const side = (max: number) => ({ $defs: { v: { anyOf: [{ type: 'string', maxLength: max }, { type: 'array', items: { $ref: '#/$defs/v' } }] } }, $ref: '#/$defs/v' });
    const oldSchema = side(10);
    const newSchema = side(5);
    const changes = compareSchemas(oldSchema, newSchema, { root: oldSchema }, { root: newSchema }, { noun: 'property' });
    expect(changes.map((c) => [c.pointer, c.input])).toEqual([['/anyOf/0/maxLength', 'breaking']]);
  });
});

describe('mcp-gen diff: schemas in files next to the manifest', () => {
  it('are bundled by the manifest loader, then compared like inline ones', async () => {
    const sideIn = (units: string[]): string => {
      const dir = tempDir();
      writeJson(dir, 'units.json', { enum: units });
      return writeJson(dir, 'manifest.json', manifest({ tools: [{ name: 't', inputSchema: { type: 'object', properties: { units: { $ref: './units.json' } } } }] }));
    };
    const report = await diffJson(sideIn(['celsius', 'fahrenheit']), sideIn(['celsius', 'fahrenheit', 'kelvin']));
    expect(report.findings.map((f) => [f.severity, f.pointer, f.message])).toEqual([['compatible', `${P}/properties/units/enum`, 'enum value "kelvin" added']]);
  });
});
