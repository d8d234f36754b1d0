/**
 * The sample generator on the keywords tool schemas use: each value is judged by an ajv built as
 * the generator builds the server's validators (createAjv), and the generator must also get there
 * on its own (not by luck of retries) for the cases checked with `attempts: 1`.
 */
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { sampleValue, SampleError } from '../../src/samples/index.js';

const ajv = createAjv('2020-12', { standalone: false });
function sample(schema: Record<string, unknown>, options: { seed?: string | number; path?: string; attempts?: number } = {}): unknown {
  const validate = ajv.compile(schema);
  const value = sampleValue({ schema, seed: options.seed ?? 1, path: options.path ?? 'test', validate, label: 'tool t (outputSchema)', ...(options.attempts ? { attempts: options.attempts } : {}) });
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  return value;
}

describe('sampleValue', () => {
  it('formats: each one its validator accepts, at the first attempt', () => {
    const formats = ['date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex'];
    for (const format of formats) for (let seed = 0; seed < 20; seed++) sample({ type: 'string', format }, { seed, attempts: 1 });
  });

  it('patterns: strings matching practical regexes, within length bounds, at the first attempt', () => {
    const patterns = ['^[A-Z]{3}-\\d{4}$', '^(foo|bar)+baz?$', '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', '^\\p{Lu}\\p{Ll}+$', '^#[0-9a-fA-F]{6}$', '^v\\d+\\.\\d+\\.\\d+(-[a-z]+)?$', '^[^\\s]{2,5}$'];
    for (const pattern of patterns) for (let seed = 0; seed < 20; seed++) sample({ type: 'string', pattern, maxLength: 40 }, { seed, attempts: 1 });
  });

  it('a pattern outside the supported subset falls back to candidates checked by RegExp', () => {
    expect(sample({ type: 'string', pattern: '^(?!y)' })).toBeTypeOf('string');
  });

  it('numbers: bounds, exclusive bounds and multipleOf', () => {
    for (let seed = 0; seed < 30; seed++) {
      sample({ type: 'integer', minimum: -3, exclusiveMaximum: 4, multipleOf: 3 }, { seed, attempts: 1 });
      sample({ type: 'number', exclusiveMinimum: 0, maximum: 0.1 }, { seed, attempts: 1 });
      sample({ type: 'number', minimum: 10, multipleOf: 0.5 }, { seed, attempts: 1 });
    }
  });

  it('objects and arrays: required, additionalProperties false, patternProperties, min/maxProperties, dependentRequired, prefixItems, contains, uniqueItems', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } },
      patternProperties: { '^x-[a-z]+$': { type: 'number' } },
      additionalProperties: false,
      required: ['a'],
      minProperties: 4,
      maxProperties: 5,
      dependentRequired: { b: ['c'] },
    };
    const list = { type: 'array', prefixItems: [{ const: 'head' }, { type: 'integer' }], items: { enum: [1, 2, 3, 4, 5, 6] }, contains: { const: 6 }, minItems: 4, maxItems: 6, uniqueItems: true };
    for (let seed = 0; seed < 30; seed++) {
      sample(schema, { seed });
      sample(list, { seed });
    }
  });

  it('oneOf: exactly one branch matches (overlapping branches are retried), anyOf, allOf, not', () => {
    const overlapping = { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] };
    for (let seed = 0; seed < 30; seed++) {
      sample(overlapping, { seed });
      sample({ anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] }, { seed });
      sample({ allOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { properties: { a: { minimum: 5 } } }] }, { seed });
      sample({ type: 'string', not: { enum: ['alpha-1'] } }, { seed });
    }
  });

  it('recursive $refs stop at a bounded depth', () => {
    const tree = {
      $ref: '#/$defs/node',
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name', 'children'] } },
    };
    for (let seed = 0; seed < 20; seed++) sample(tree, { seed, attempts: 1 });
  });

  it('is deterministic for a seed and path, and differs across seeds', () => {
    const schema = { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['id', 'n', 'tags'] };
    expect(sample(schema, { seed: 'a' })).toEqual(sample(schema, { seed: 'a' }));
    expect(sample(schema, { seed: 'a' })).not.toEqual(sample(schema, { seed: 'b' }));
    expect(sample(schema, { seed: 'a', path: 'x' })).not.toEqual(sample(schema, { seed: 'a', path: 'y' }));
  });

  it('keeps __proto__ and other prototype names as own properties', () => {
    const value = sample({ type: 'object', properties: { __proto__: { type: 'integer' }, constructor: { type: 'string' } }, required: ['__proto__', 'constructor'] }) as object;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('an unsatisfiable schema is a SampleError naming the schema and the JSON pointer', () => {
    const schema = { type: 'object', properties: { when: { type: 'object', properties: { day: { type: 'string', minLength: 5, maxLength: 2 } }, required: ['day'] } }, required: ['when'] };
    const validate = ajv.compile(schema);
    expect(() => sampleValue({ schema, seed: 1, path: 'p', validate, label: 'tool plan (outputSchema)' })).toThrow(SampleError);
    try {
      sampleValue({ schema, seed: 1, path: 'p', validate, label: 'tool plan (outputSchema)' });
    } catch (error) {
      expect((error as SampleError).message).toBe('cannot generate a value for tool plan (outputSchema) after 40 attempts: at /when/day: minLength 5 is above maxLength 2');
      expect((error as SampleError).pointer).toBe('/when/day');
    }
    const never = { type: 'object', properties: { a: false }, required: ['a'] };
    expect(() => sampleValue({ schema: never, seed: 1, path: 'p', validate: ajv.compile(never), label: 'tool x (outputSchema)' })).toThrow(
      'cannot generate a value for tool x (outputSchema) after 40 attempts: at /a: the schema is false: no value satisfies it',
    );
  });
});
