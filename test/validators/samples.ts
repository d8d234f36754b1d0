/**
 * Samples derived from a schema: instances built to be valid, and mutations built to be invalid
 * (a required property removed, a property given a type its schema does not allow). Used by the
 * spec-example and differential tests. Only what the MCP schemas use is understood; anything
 * else makes the helpers give up on that spot rather than guess.
 */

type Schema = { [key: string]: unknown };
export type Definitions = Record<string, unknown>;

const MAX_DEPTH = 8;

export function resolve(defs: Definitions, schema: unknown, seen = 0): Schema | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const s = schema as Schema;
  const ref = s['$ref'];
  if (typeof ref !== 'string') return s;
  if (seen > MAX_DEPTH) return undefined;
  const name = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref)?.[1];
  return name === undefined ? undefined : resolve(defs, defs[name], seen + 1);
}

/** `properties` and `required` of an object schema, through `$ref` and `allOf`; undefined for unions. */
export function objectShape(defs: Definitions, schema: unknown): { properties: Record<string, unknown>; required: string[] } | undefined {
  const s = resolve(defs, schema);
  if (!s || s['anyOf'] || s['oneOf']) return undefined;
  const properties: Record<string, unknown> = { ...((s['properties'] as Record<string, unknown>) ?? {}) };
  const required = [...((s['required'] as string[]) ?? [])];
  for (const part of (s['allOf'] as unknown[]) ?? []) {
    const shape = objectShape(defs, part);
    if (!shape) return undefined;
    Object.assign(properties, shape.properties);
    required.push(...shape.required);
  }
  if (Object.keys(properties).length === 0 && required.length === 0 && s['type'] !== 'object') return undefined;
  return { properties, required };
}

/** Every JSON type a schema allows, or undefined when that cannot be told (no `type` somewhere). */
export function allowedTypes(defs: Definitions, schema: unknown, depth = 0): Set<string> | undefined {
  const s = resolve(defs, schema);
  if (!s || depth > MAX_DEPTH) return undefined;
  const union = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (union) {
    const all = new Set<string>();
    for (const member of union) {
      const types = allowedTypes(defs, member, depth + 1);
      if (!types) return undefined;
      types.forEach((t) => all.add(t));
    }
    return all;
  }
  const type = s['type'];
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type as string[]);
  return undefined;
}

/** A JSON value whose type `types` does not allow. */
export function wrongTypeValue(types: ReadonlySet<string>): unknown {
  const candidates: [unknown, string][] = [
    [{ wrong: true }, 'object'],
    [['wrong'], 'array'],
    ['wrong', 'string'],
    [0.5, 'number'],
    [true, 'boolean'],
    [null, 'null'],
  ];
  return candidates.find(([, type]) => !types.has(type))?.[0];
}

export interface Mutation {
  description: string;
  value: unknown;
}

/** Copies of `instance` that `schema` must reject, derived from the schema. */
export function mutations(defs: Definitions, schema: unknown, instance: unknown): Mutation[] {
  const out: Mutation[] = [];
  const rootTypes = allowedTypes(defs, schema);
  if (rootTypes) out.push({ description: 'whole value of the wrong type', value: wrongTypeValue(rootTypes) });
  const shape = objectShape(defs, schema);
  if (!shape || instance === null || typeof instance !== 'object' || Array.isArray(instance)) return out;
  const object = instance as Record<string, unknown>;
  for (const name of shape.required) {
    if (!Object.prototype.hasOwnProperty.call(object, name)) continue;
    const copy = { ...object };
    delete copy[name];
    out.push({ description: `required ${name} removed`, value: copy });
  }
  for (const [name, propertySchema] of Object.entries(shape.properties)) {
    if (!Object.prototype.hasOwnProperty.call(object, name)) continue;
    const types = allowedTypes(defs, propertySchema);
    if (!types) continue;
    out.push({ description: `${name} of the wrong type`, value: { ...object, [name]: wrongTypeValue(types) } });
    const format = resolve(defs, propertySchema)?.['format'];
    if (typeof format === 'string' && format in FORMAT_SAMPLES) {
      out.push({ description: `${name} not a ${format}`, value: { ...object, [name]: ' not valid %%' } });
    }
  }
  return out;
}

const FORMAT_SAMPLES: Record<string, string> = {
  uri: 'https://example.com/a/b?c=d#e',
  'uri-template': 'file:///{path}',
  byte: 'aGVsbG8gd29ybGQ=',
  'date-time': '2025-06-18T12:00:00Z',
  email: 'someone@example.com',
};

/**
 * An instance meant to satisfy `schema`: `full` adds every optional property, `branch` picks the
 * member of a top-level union. It can miss (a pattern, a deep oneOf); tests check how often it hits.
 */
export function generate(defs: Definitions, schema: unknown, options: { full: boolean; branch?: number }, depth = 0): unknown {
  const s = resolve(defs, schema);
  if (!s || depth > MAX_DEPTH) return {};
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'][s['enum'].length - 1];
  const union = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (union && union.length > 0) {
    const pick = depth === 0 ? (options.branch ?? 0) % union.length : 0;
    return generate(defs, union[pick], options, depth + 1);
  }
  if (Array.isArray(s['allOf'])) {
    return Object.assign({}, ...(s['allOf'] as unknown[]).map((part) => generate(defs, part, options, depth + 1)));
  }
  const type = Array.isArray(s['type']) ? (s['type'][0] as string) : (s['type'] as string | undefined);
  switch (type ?? (s['properties'] ? 'object' : undefined)) {
    case 'object': {
      const shape = objectShape(defs, s) ?? { properties: {}, required: [] };
      const names = options.full ? Object.keys(shape.properties) : shape.required;
      const out: Record<string, unknown> = {};
      for (const name of names) out[name] = generate(defs, shape.properties[name], options, depth + 1);
      return out;
    }
    case 'array':
      return options.full && s['items'] ? [generate(defs, s['items'], options, depth + 1)] : [];
    case 'string':
      return FORMAT_SAMPLES[s['format'] as string] ?? 'text';
    case 'integer':
      return typeof s['minimum'] === 'number' ? Math.ceil(s['minimum']) : 1;
    case 'number':
      return typeof s['maximum'] === 'number' ? s['maximum'] : typeof s['minimum'] === 'number' ? s['minimum'] : 0.25;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}
