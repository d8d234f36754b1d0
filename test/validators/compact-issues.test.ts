/**
 * ajv's problem literals become helper calls (src/emit/validators/compact-issues.ts): the objects
 * a generated validator reports stay exactly ajv's, key order included, and property names that
 * spell pieces of the literal's own syntax inside their quotes are read as the strings they are.
 */
import type { ValidateFunction } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { compactIssueLiterals } from '../../src/emit/validators/compact-issues.js';
import { emitValidators } from '../../src/emit/validators/index.js';
import { importEmitted, tempDir, type ValidatorFn } from './support.js';

const dir = tempDir('validators-compact-issues');
afterAll(() => dir.remove());

/** Names that look like the literal's syntax, JSON Pointer escapes, quotes and line separators. */
const HOSTILE = ['plain', 'a,schemaPath:"#/x",keyword:"type"', 'quote"}{', 'tilde~and/slash', "it's", 'line\u2028sep', 'back\\slash'];

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: HOSTILE,
  additionalProperties: false,
  properties: {
    ...Object.fromEntries(HOSTILE.map((name) => [name, { type: 'string' }])),
    list: { type: 'array', items: { type: 'object', required: ['at'], additionalProperties: false, properties: { at: { type: 'string', format: 'date-time' } } } },
    either: { type: ['string', 'null'] },
    count: { type: 'integer' },
  },
};

const complete = Object.fromEntries(HOSTILE.map((name) => [name, 'x']));
const SAMPLES: unknown[] = [
  null,
  [],
  {},
  { ...complete },
  { ...complete, extra: 1 },
  { ...complete, 'quote"}{': 5 },
  { ...complete, 'tilde~and/slash': false },
  { ...complete, list: [{ at: '2026-12-07T00:00:00Z' }, { at: 'yesterday' }] },
  { ...complete, list: [{ at: '2026-12-07T00:00:00Z' }, {}] },
  { ...complete, list: [{ at: '2026-12-07T00:00:00Z', 'odd"key': 1 }] },
  { ...complete, list: [7] },
  { ...complete, either: 3 },
  { ...complete, count: 1.5 },
  { ...complete, 'line\u2028sep': [] },
];

describe('compact problem literals', () => {
  it('report exactly the problems ajv reports, for every sample', async () => {
    const { js } = emitValidators({ root: schema, dialect: '2020-12', entries: [{ exportName: 'validateThing', ref: '#', typeName: 'Thing' }] });
    // The helpers are in use: the test below would prove nothing about them otherwise.
    for (const helper of ['$typeIssue(', '$requiredIssue(', '$additionalIssue(', '$formatIssue(']) expect(js).toContain(helper);
    const generated = (await importEmitted(dir, 'compact', js))['validateThing'] as ValidatorFn;
    const reference = createAjv('2020-12', { standalone: false }).compile(schema) as ValidateFunction;
    const failures = SAMPLES.filter((sample) => {
      const ok = reference(sample);
      expect(generated(sample)).toBe(ok);
      // Key order too: JSON text, not deep equality.
      expect(JSON.stringify(generated.errors ?? null)).toBe(JSON.stringify(reference.errors ?? null));
      return !ok;
    });
    expect(failures.length).toBe(SAMPLES.length - 1);
  });

  it('leaves a literal alone unless every token matches its shape', () => {
    const ajvLike = '{instancePath:instancePath+"/a",schemaPath:"#/properties/a/type",keyword:"type",params:{type: "string"},message:"must be string"}';
    expect(compactIssueLiterals(ajvLike).code).toBe('$typeIssue(instancePath+"/a","#/properties/a/type","string")');
    // A message that does not follow from the params, a type read from the schema, a call in the path.
    const odd = [
      '{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be text"}',
      '{instancePath,schemaPath:"#/type",keyword:"type",params:{type: schema1.type},message:"must be string,null"}',
      '{instancePath:f(),schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}',
      '{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property \'"+missing1+"\'"}',
    ];
    // A long name in a literal of another keyword: read once, not split every possible way (2^59 tries).
    odd.push(`{instancePath:instancePath+"/" + ${'i'.repeat(60)},schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}`);
    for (const literal of odd) {
      const { code, needed } = compactIssueLiterals(literal);
      expect(code).toBe(literal);
      expect(needed.size).toBe(0);
    }
  });
});
