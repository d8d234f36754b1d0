/**
 * Random manifests for the generator fuzz suite (issue 6): tool lists whose names come from the whole
 * Unicode range, reserved words, Object.prototype names and names that collide once converted, and
 * schemas built from every draft-07 and 2020-12 keyword, with recursive `$ref`s, deep nesting and
 * boolean subschemas. Values are data for JSON.stringify: `__proto__` keys are own properties.
 */
import fc from 'fast-check';

const PROTOTYPE_NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__'])];
const RESERVED = ['class', 'default', 'constructor', 'delete', 'Tools', 'Handlers', 'ToolHandlers', 'Promise', 'Object', 'String', 'validate', 'index', 'main', 'types', 'server', 'await', 'enum', 'unknown', 'never', 'Input', 'Output'];
const COLLIDING = ['get_user', 'get-user', 'GetUser', 'getUser', 'get.user', 'GET_USER', '1abc', '_1abc', '_', 'a', 'A', 'x_2', 'x', 'X'];
/** Text meant to break out of comments or strings, or to hide in them. */
const HOSTILE_TEXT = ['*/ export const pwn = 1; /*', '@ts-nocheck', '\n * @ts-ignore\n', '\u202Eevil\u202C', '\u2028', '\u0000', '${x}', '`', '"', "'", '\\', '</script>', '\u200B', '/// <reference path="x" />'];

/** Any string, from the whole Unicode range (lone surrogates included), short. */
const anyString = fc.string({ unit: 'binary', maxLength: 8 });

const toolName = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, ...RESERVED, ...COLLIDING) },
  { weight: 1, arbitrary: anyString },
);

const propertyName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, ...RESERVED, ...COLLIDING, '$ref', 'type', 'properties', '', ' ', '*/', 'a"b', 'line\u2028sep') },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z]{1,6}$/) },
  { weight: 1, arbitrary: anyString },
);

const text = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), anyString, fc.string({ maxLength: 20 }));

const jsonPrimitive = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(...PROTOTYPE_NAMES, 'a', ''), anyString);
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonPrimitive,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(propertyName, tie('value'), { maxKeys: 3 }),
  ),
})).value;

const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;
const PATTERNS = ['^x', '^[a-z]+$', '.*', '^\\d+$', '^__proto__$', '\\p{L}', 'a|b', '^(?!y)'];
const FORMATS = ['date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex', 'not-a-format'];
/** Definition names a schema's `$defs` may hold and its `$ref`s may name (some stay undefined). */
const DEF_NAMES = ['A', 'hasOwnProperty', '__proto__', 'ü b', 'constructor', 'Rec'];

export type Dialect = '2020-12' | 'draft-07';

const small = fc.integer({ min: 0, max: 4 });

/** One keyword and its value; `sub` is a subschema arbitrary one level down. */
function keyword(dialect: Dialect, sub: fc.Arbitrary<unknown>): fc.Arbitrary<[string, unknown]> {
  const defsKey = dialect === 'draft-07' ? 'definitions' : '$defs';
  const pair = <T>(name: string, value: fc.Arbitrary<T>): fc.Arbitrary<[string, unknown]> => value.map((v) => [name, v] as [string, unknown]);
  const common = [
    pair('type', fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }))),
    pair('properties', fc.dictionary(propertyName, sub, { maxKeys: 4 })),
    pair('required', fc.uniqueArray(propertyName, { maxLength: 3 })),
    pair('additionalProperties', fc.oneof(fc.boolean(), sub)),
    pair('patternProperties', fc.dictionary(fc.constantFrom(...PATTERNS), sub, { maxKeys: 2 })),
    pair('propertyNames', fc.oneof(sub, fc.constantFrom(...PATTERNS).map((pattern) => ({ pattern })))),
    pair('minProperties', small),
    pair('maxProperties', small),
    pair('dependentRequired', fc.dictionary(propertyName, fc.uniqueArray(propertyName, { maxLength: 2 }), { maxKeys: 2 })),
    pair('dependentSchemas', fc.dictionary(propertyName, sub, { maxKeys: 2 })),
    pair('items', sub),
    pair('contains', sub),
    pair('minContains', small),
    pair('maxContains', small),
    pair('minItems', small),
    pair('maxItems', small),
    pair('uniqueItems', fc.boolean()),
    pair('enum', fc.array(jsonValue, { minLength: 1, maxLength: 4 })),
    pair('const', jsonValue),
    pair('allOf', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('anyOf', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('oneOf', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('not', sub),
    pair('if', sub),
    pair('then', sub),
    pair('else', sub),
    pair('minimum', fc.integer({ min: -10, max: 10 })),
    pair('maximum', fc.integer({ min: -10, max: 10 })),
    pair('exclusiveMinimum', fc.integer({ min: -10, max: 10 })),
    pair('exclusiveMaximum', fc.integer({ min: -10, max: 10 })),
    pair('multipleOf', fc.constantFrom(1, 2, 0.5, 3)),
    pair('minLength', small),
    pair('maxLength', small),
    pair('pattern', fc.constantFrom(...PATTERNS)),
    pair('format', fc.constantFrom(...FORMATS)),
    pair('description', text),
    pair('title', text),
    pair('$comment', text),
    pair('default', jsonValue),
    pair('examples', fc.array(jsonValue, { maxLength: 2 })),
    pair('deprecated', fc.boolean()),
    pair('readOnly', fc.boolean()),
    pair('writeOnly', fc.boolean()),
    pair('contentMediaType', fc.constantFrom('application/json', 'text/plain')),
    pair('contentEncoding', fc.constantFrom('base64')),
    pair('$ref', fc.constantFrom(...DEF_NAMES).map((name) => `#/${defsKey}/${encodeURIComponent(name)}`)),
    pair(defsKey, fc.dictionary(fc.constantFrom(...DEF_NAMES), sub, { maxKeys: 2 })),
    pair('x-ext', jsonValue),
    pair('tsType', fc.constantFrom('string; export const pwn = 1', 'any')),
    pair('hasOwnProperty', jsonValue),
  ];
  const only2020 = [
    pair('prefixItems', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('unevaluatedProperties', fc.oneof(fc.boolean(), sub)),
    pair('unevaluatedItems', fc.oneof(fc.boolean(), sub)),
    pair('$anchor', fc.constantFrom('a1')),
    pair('$dynamicRef', fc.constant('#meta')),
  ];
  const onlyDraft07 = [
    pair('items', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('additionalItems', fc.oneof(fc.boolean(), sub)),
    pair('dependencies', fc.dictionary(propertyName, fc.oneof(sub, fc.uniqueArray(propertyName, { maxLength: 2 })), { maxKeys: 2 })),
  ];
  return fc.oneof(...common, ...(dialect === '2020-12' ? only2020 : onlyDraft07));
}

/** A schema object of up to `maxKeywords` keywords, built from its keyword pairs (own keys, even `__proto__`). */
function schemaOf(dialect: Dialect, depth: number, maxKeywords = 4): fc.Arbitrary<unknown> {
  const sub: fc.Arbitrary<unknown> =
    depth <= 0
      ? fc.oneof(fc.boolean(), fc.constant({}), fc.constantFrom(...TYPES).map((type) => ({ type })), fc.constantFrom(...DEF_NAMES).map((n) => ({ $ref: `#/${dialect === 'draft-07' ? 'definitions' : '$defs'}/${encodeURIComponent(n)}` })))
      : fc.oneof({ weight: 1, arbitrary: fc.boolean() }, { weight: 4, arbitrary: fc.constant(null).chain(() => schemaOf(dialect, depth - 1, 3)) });
  return fc.array(keyword(dialect, sub), { maxLength: maxKeywords }).map((pairs) => {
    const node: Record<string, unknown> = {};
    for (const [k, v] of pairs) Object.defineProperty(node, k, { value: v, enumerable: true, writable: true, configurable: true });
    return node;
  });
}

/** A chain of `depth` nested schemas through properties, items and anyOf: near and past the depth limit. */
const deepSchema = fc.tuple(fc.integer({ min: 20, max: 230 }), fc.constantFrom('properties', 'items', 'anyOf')).map(([depth, how]) => {
  let node: unknown = { type: 'string' };
  for (let i = 0; i < depth; i++) {
    node = how === 'properties' ? { type: 'object', properties: { n: node } } : how === 'items' ? { type: 'array', items: node } : { anyOf: [node, { type: 'null' }] };
  }
  return node;
});

function toolSchema(dialect: Dialect): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof({ weight: 12, arbitrary: schemaOf(dialect, 3, 6) }, { weight: 1, arbitrary: deepSchema.map((deep) => ({ properties: { deep } })) }).map((s) => {
    const root = { ...(s as Record<string, unknown>) };
    // Most roots say `type: object`, as MCP requires; some do not, and must be refused with a position.
    if (Math.abs(JSON.stringify(root).length % 11) !== 0) root['type'] = 'object';
    if (dialect === 'draft-07') root['$schema'] = 'http://json-schema.org/draft-07/schema#';
    // Most refs should land: the root defines every name refs may use, unless it says otherwise;
    // `Rec` refers to itself (a recursive type).
    if (JSON.stringify(root).length % 5 !== 0) {
      const key = dialect === 'draft-07' ? 'definitions' : '$defs';
      const defs = (typeof root[key] === 'object' && root[key] !== null ? root[key] : {}) as Record<string, unknown>;
      for (const name of DEF_NAMES) {
        if (Object.hasOwn(defs, name)) continue;
        const value = name === 'Rec' ? { type: 'object', properties: { next: { $ref: `#/${key}/Rec` } } } : { type: 'string' };
        Object.defineProperty(defs, name, { value, enumerable: true, writable: true, configurable: true });
      }
      root[key] = defs;
    }
    return root;
  });
}

const tool = fc.record({
  name: toolName,
  dialect: fc.constantFrom<Dialect>('2020-12', 'draft-07'),
  description: fc.option(text, { nil: undefined }),
  title: fc.option(text, { nil: undefined }),
  withOutput: fc.boolean(),
}).chain((t) =>
  fc.record({ input: toolSchema(t.dialect), output: toolSchema(t.dialect) }).map(({ input, output }) => ({
    name: t.name,
    ...(t.title !== undefined ? { title: t.title } : {}),
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: input,
    ...(t.withOutput ? { outputSchema: output } : {}),
  })),
);

/** A manifest as a JSON value: a server and one to four tools. */
export const manifestArbitrary: fc.Arbitrary<Record<string, unknown>> = fc
  .array(tool, { minLength: 1, maxLength: 4 })
  .map((tools) => ({ server: { name: 'fuzz', version: '1.0.0' }, tools }));
