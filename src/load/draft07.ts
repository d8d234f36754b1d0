/**
 * Draft-07 tool schemas as 2020-12 schemas with the same meaning, so that everything after the
 * loader (types, validators, the output check) reads one dialect, whatever a manifest mixes. The
 * model keeps the original beside it for the wire (`tools/list` advertises what the user wrote).
 *
 * What differs between the two: a tuple `items: [..]` (+ `additionalItems`) is `prefixItems`
 * (+ `items`); `dependencies` splits into `dependentRequired` and `dependentSchemas`; siblings of
 * `$ref` are ignored in draft-07, so they go; and 2020-12 keywords mean nothing in draft-07, so
 * they go too rather than start to apply.
 */
import { isDraft07Schema } from '../schema/dialect.js';
import { defineOwn, isSchemaObject, isSubschema, subschemaSlot, type SchemaObject } from '../schema/keywords.js';

const ONLY_2020 = ['prefixItems', 'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'dependentSchemas', 'minContains', 'maxContains', '$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$vocabulary'];

/** The schema unchanged when it is not draft-07; else its 2020-12 equivalent (without `$schema`). */
export function as2020(schema: SchemaObject): SchemaObject {
  if (!isDraft07Schema(schema)) return schema;
  const converted = convert(schema) as SchemaObject;
  delete converted['$schema'];
  return converted;
}

function convert(value: unknown): unknown {
  if (!isSchemaObject(value)) return value;
  let node: SchemaObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (ONLY_2020.includes(key)) continue;
    let copy: unknown = child;
    switch (subschemaSlot(key, child)) {
      case 'list':
        copy = (child as unknown[]).map(convert);
        break;
      case 'one':
        copy = convert(child);
        break;
      case 'map': {
        const entries: SchemaObject = {};
        for (const [name, sub] of Object.entries(child as SchemaObject)) defineOwn(entries, name, isSubschema(sub) ? convert(sub) : sub);
        copy = entries;
        break;
      }
    }
    defineOwn(node, key, copy);
  }
  if (typeof node['$ref'] === 'string') {
    const kept: SchemaObject = { $ref: movedRef(node['$ref']) };
    for (const container of ['definitions', '$defs']) if (Object.hasOwn(node, container)) defineOwn(kept, container, node[container]);
    return kept;
  }
  if (Array.isArray(node['items'])) {
    const { items, additionalItems, ...rest } = node;
    node = { ...rest, prefixItems: items, ...(additionalItems !== undefined ? { items: additionalItems } : {}) };
  } else if (Object.hasOwn(node, 'additionalItems')) {
    delete node['additionalItems'];
  }
  const dependencies = node['dependencies'];
  if (isSchemaObject(dependencies)) {
    const required: SchemaObject = {};
    const schemas: SchemaObject = {};
    for (const [name, dep] of Object.entries(dependencies)) defineOwn(Array.isArray(dep) ? required : schemas, name, dep);
    delete node['dependencies'];
    if (Object.keys(required).length > 0) node['dependentRequired'] = required;
    if (Object.keys(schemas).length > 0) node['dependentSchemas'] = schemas;
  }
  return node;
}

/** A ref into a moved place follows it (tuple members, dependency schemas). */
function movedRef(ref: string): string {
  return ref.replace(/\/items\/(\d+)(?=\/|$)/g, '/prefixItems/$1').replace(/\/dependencies\//g, '/dependentSchemas/');
}
