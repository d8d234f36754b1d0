/**
 * schema/meta-2020-12.validator.cjs, schema/meta-draft-07.validator.cjs and
 * schema/compiler-knowledge.json (src/load/meta-validators-source.ts): what the tool-schema check
 * takes from ajv without loading it. They must be what ajv gives today, and judge every schema as
 * ajv's own validateSchema does, messages included.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { COMPILER_KNOWLEDGE_URL, META_VALIDATOR_URLS } from '../../src/load/meta-validator-paths.js';
import { compilerKnowledgeSource, metaValidatorSource } from '../../src/load/meta-validators-source.js';
import { makeAjv, META_OPTIONS, type Dialect } from '../../src/load/schema-compiler.js';
import { precheck } from '../../src/load/schema-precheck.js';
import { isDraft07 } from '../../src/load/manifest-refs.js';
import { manifestArbitrary } from '../fuzz/arbitraries.js';

const DIALECTS: Dialect[] = ['2020-12', 'draft-07'];
const SUPPORTED = new Set<unknown>(['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema']);

describe('the precompiled meta-schema validators and compiler knowledge', () => {
  for (const dialect of DIALECTS) {
    test(`meta-${dialect}.validator.cjs is what ajv compiles today (else: npm run -s build && node scripts/meta-validators.mjs)`, () => {
      expect(readFileSync(META_VALIDATOR_URLS[dialect], 'utf8')).toBe(metaValidatorSource(dialect));
    });
  }

  test('compiler-knowledge.json lists what the compiling ajv knows today (else: the same script)', () => {
    expect(readFileSync(COMPILER_KNOWLEDGE_URL, 'utf8')).toBe(compilerKnowledgeSource());
  });

  test("judge a schema as ajv's validateSchema does, every error and message the same", () => {
    const bad: object[] = [
      { type: 'strnig' }, { properties: { a: { type: 5 } } }, { required: ['a', 'a'] }, { enum: [] }, { anyOf: [] },
      { properties: { x: { properties: { y: { minLength: -1 } } } } }, { $defs: { a: { minimum: 'x' } } }, { dependentSchemas: { a: { type: 'x' } } },
      { additionalProperties: { not: { type: [] } } }, { items: [{ type: 'string' }] }, { $anchor: '1bad' }, { $comment: 1 }, { format: 5 },
      { type: 'object', properties: { a: { type: 'string', pattern: '^a' } } },
    ];
    // Tool schemas of random manifests: every keyword of both dialects, valid and not.
    const tools = fc.sample(manifestArbitrary, { seed: 16, numRuns: 60 }).flatMap((m) => m['tools'] as { inputSchema?: unknown }[]);
    const schemas = [...bad, ...tools.map((t) => t.inputSchema).filter((s): s is object => typeof s === 'object' && s !== null && !Array.isArray(s))];
    const judges = Object.fromEntries(DIALECTS.map((d) => [d, makeAjv(d, META_OPTIONS)]));
    let invalid = 0;
    for (const schema of schemas) {
      for (const subject of [schema, { ...schema, $schema: 'http://json-schema.org/draft-07/schema#' }] as Record<string, unknown>[]) {
        // The check only sees a root `$schema` it knows (manifest-checks.ts reports any other).
        if (Object.hasOwn(subject, '$schema') && !SUPPORTED.has(subject['$schema'])) continue;
        const ajv = judges[isDraft07(subject) ? 'draft-07' : '2020-12']!;
        const expected = ajv.validateSchema(subject) ? [] : ajv.errors;
        const got = precheck(subject)?.schemaErrors ?? [];
        expect(JSON.stringify(got), JSON.stringify(subject)).toBe(JSON.stringify(expected));
        if (got.length > 0) invalid++;
      }
    }
    // Not vacuous.
    expect(invalid).toBeGreaterThanOrEqual(bad.length);
  });
});
