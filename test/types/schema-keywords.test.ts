import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../../src/schema/keywords.js';
import type { Json, JsonObject } from '../../src/emit/validators/ajv-schema.js';
import { subschemaSlot } from '../../src/schema/keywords.js';
import { copySchema as copyForServer, mapSchema as mapSpecSchema, rewriteSchema } from '../../src/schema/walk.js';

describe('subschemaSlot', () => {
  it('lets the value decide what `items` holds', () => {
    expect(subschemaSlot('items', { type: 'string' })).toBe('one');
    expect(subschemaSlot('items', false)).toBe('one');
    expect(subschemaSlot('items', [{ type: 'string' }])).toBe('list');
    expect(subschemaSlot('prefixItems', [{}])).toBe('list');
  });

  it('takes `dependencies` for a map, like dependentSchemas', () => {
    expect(subschemaSlot('dependencies', { a: ['b'], c: { required: ['d'] } })).toBe('map');
    expect(subschemaSlot('dependentSchemas', { c: {} })).toBe('map');
  });

  it('calls a value of the wrong type, or any other keyword, data', () => {
    expect(subschemaSlot('not', [{}])).toBeUndefined();
    expect(subschemaSlot('allOf', {})).toBeUndefined();
    expect(subschemaSlot('properties', ['a'])).toBeUndefined();
    expect(subschemaSlot('const', { type: 'string' })).toBeUndefined();
    expect(subschemaSlot('enum', [{}])).toBeUndefined();
  });
});

/** Every place a schema sits in it, besides arrays and objects that are only data. */
const draft07: SchemaObject = {
  type: 'object',
  properties: { items: { type: 'array', items: [{ const: { type: 'x' } }, true] } },
  dependencies: { a: ['b', 'c'], d: { required: ['e'] } },
  definitions: { 'x/y': { not: { enum: [{ properties: {} }] } } },
};
const schemaPointers = ['', '/properties/items', '/properties/items/items/0', '/dependencies/d', '/definitions/x~1y', '/definitions/x~1y/not'];

describe('the walkers share one table', () => {
  it('spec loader visits each schema position and no data', () => {
    const seen: string[] = [];
    mapSpecSchema(draft07, '', (node, pointer) => (seen.push(pointer), node));
    expect(seen.sort()).toEqual([...schemaPointers].sort());
  });

  it('server copy visits the same positions and shares no array with its input', () => {
    const seen: string[] = [];
    const copy = copyForServer(draft07, (node, position) => (seen.push(position.pointer), node)) as SchemaObject;
    expect(seen.sort()).toEqual([...schemaPointers].sort());
    expect(copy).toEqual(draft07);
    const dependencies = (s: SchemaObject): unknown => (s['dependencies'] as SchemaObject)['a'];
    expect(dependencies(copy)).not.toBe(dependencies(draft07));
  });

  it('validator rewrite touches schema objects only', () => {
    const marked = rewriteSchema(draft07 as Json, (node: JsonObject) => ({ ...node, seen: true }));
    const dependencies = (marked as JsonObject)['dependencies'] as JsonObject;
    expect(dependencies['a']).toEqual(['b', 'c']);
    expect(dependencies['d']).toEqual({ required: ['e'], seen: true });
    const items = ((((marked as JsonObject)['properties'] as JsonObject)['items'] as JsonObject)['items'] as Json[]);
    expect(items).toEqual([{ const: { type: 'x' }, seen: true }, true]);
  });
});
