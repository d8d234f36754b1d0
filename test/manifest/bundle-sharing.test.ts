/**
 * The bundler shares structure with the manifest (src/load/manifest-refs.ts): a tool schema with
 * nothing to rewrite is returned as it is, one with a rewritten `$ref` gets a new spine above it
 * and keeps every other node, and the manifest's own nodes are never changed. Copying every node
 * of 1,000 tools was the largest part of a warm run's load.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseJsonSource } from '../../src/load/json-source.js';
import { SchemaBundler } from '../../src/load/manifest-refs.js';

type Json = { [key: string]: any };

function bundlerFor(manifest: Json): { bundler: SchemaBundler; raw: Json } {
  const file = path.resolve('virtual', 'manifest.json');
  const doc = parseJsonSource(JSON.stringify(manifest), 'manifest.json').document!;
  return { bundler: new SchemaBundler({ path: file, doc }, { allowOutside: false, displayDir: '.' }), raw: doc.value as Json };
}

/** Whether some object or array is reached twice in `value` (a DAG rather than a tree). */
function hasRepeats(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (seen.has(value)) return true;
  seen.add(value);
  return Object.values(value).some((child) => hasRepeats(child, seen));
}

describe('bundling shares the nodes it does not change', () => {
  test('a schema without references is the manifest\'s own node', () => {
    const { bundler, raw } = bundlerFor({
      server: { name: 's', version: '1' },
      tools: [{ name: 'a', inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^a', enum: ['a', 'ab'] } }, required: ['q'] } }],
    });
    const bundled = bundler.bundle('/tools/0/inputSchema');
    expect(bundled.schema).toBe(raw.tools[0].inputSchema);
    expect(bundler.problems).toEqual([]);
  });

  test('a rewritten $ref gets a new spine; its siblings are shared; the manifest is left as it was', () => {
    const manifest = {
      server: { name: 's', version: '1' },
      $defs: { Money: { type: 'object', properties: { amount: { type: 'number' } } } },
      tools: [{
        name: 'a',
        inputSchema: {
          type: 'object',
          properties: {
            price: { $ref: '#/$defs/Money' },
            note: { type: 'object', properties: { text: { type: 'string' } } },
          },
        },
      }],
    };
    const before = JSON.stringify(manifest);
    const { bundler, raw } = bundlerFor(manifest);
    const own = raw.tools[0].inputSchema;
    const bundled = bundler.bundle('/tools/0/inputSchema').schema as Json;
    // The `$ref` reads the same before and after, but the definitions are added to a new root.
    expect(bundled).not.toBe(own);
    expect(bundled.properties.note).toBe(own.properties.note);
    expect(bundled.$defs.Money).toEqual(raw.$defs.Money);
    // A definition reached through `$ref` is a copy: no manifest node appears twice.
    expect(bundled.$defs.Money).not.toBe(raw.$defs.Money);
    expect(JSON.stringify(raw)).toBe(before);
    expect(hasRepeats(bundled)).toBe(false);
    expect(bundled).toEqual({
      type: 'object',
      properties: { price: { $ref: '#/$defs/Money' }, note: { type: 'object', properties: { text: { type: 'string' } } } },
      $defs: { Money: { type: 'object', properties: { amount: { type: 'number' } } } },
    });
  });

  test('a dropped keyword copies only the nodes above it', () => {
    const { bundler, raw } = bundlerFor({
      server: { name: 's', version: '1' },
      tools: [{ name: 'a', inputSchema: { type: 'object', properties: { a: { type: 'string', tsType: 'any' }, b: { type: 'array', items: [{ type: 'string' }] } } } }],
    });
    const own = raw.tools[0].inputSchema;
    const bundled = bundler.bundle('/tools/0/inputSchema').schema as Json;
    expect(bundled.properties.a).toEqual({ type: 'string' });
    expect(own.properties.a.tsType).toBe('any');
    expect(bundled.properties.b).toBe(own.properties.b);
    expect(bundler.warnings.map((w) => w.message)).toEqual(["'tsType' ignored: schemas are data, never code"]);
  });

  test('a root $ref to the schema\'s own definition inlines a copy, not the definition itself', () => {
    const { bundler, raw } = bundlerFor({
      server: { name: 's', version: '1' },
      tools: [{ name: 'a', inputSchema: { $ref: '#/$defs/In', $defs: { In: { type: 'object', properties: { n: { type: 'integer' } } } } } }],
    });
    const own = raw.tools[0].inputSchema;
    const bundled = bundler.bundle('/tools/0/inputSchema').schema as Json;
    expect(bundled.properties).toEqual(own.$defs.In.properties);
    expect(bundled.properties).not.toBe(bundled.$defs.In.properties);
    expect(hasRepeats(bundled)).toBe(false);
  });

  test('a $ref to an ancestor of the tool schema copies the way back into it', () => {
    const { bundler, raw } = bundlerFor({
      server: { name: 's', version: '1' },
      tools: [{ name: 'a', inputSchema: { type: 'object', properties: { up: { $ref: '#/tools/0' }, n: { type: 'object', properties: { m: { type: 'string' } } } } } }],
    });
    const own = raw.tools[0].inputSchema;
    const bundled = bundler.bundle('/tools/0/inputSchema').schema as Json;
    expect(bundled.properties.n).toBe(own.properties.n);
    expect(bundled.$defs['0'].inputSchema.properties.n).toEqual(own.properties.n);
    expect(hasRepeats(bundled)).toBe(false);
  });
});
