/**
 * Property: every value the sample generator returns for a tool's outputSchema is accepted by the
 * validator the generated server would run, over the generator-fuzz manifests (test/fuzz): random
 * schemas with every keyword, recursive `$ref`s, formats, patterns and boolean subschemas. A schema
 * the generator cannot satisfy must fail with a SampleError naming a JSON pointer, never return a
 * bad value. 1,000 samples in the test run (five seeds per schema: compiling is the slow part);
 * `npm run fuzz:mock` runs more (MOCK_FUZZ_SAMPLES, FUZZ_SEED).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv, type Dialect } from '../../src/emit/validators/ajv-instance.js';
import { as2020 } from '../../src/load/draft07.js';
import { isDraft07Schema } from '../../src/schema/dialect.js';
import { sampleValue, SampleError } from '../../src/samples/index.js';
import { manifestArbitrary } from '../fuzz/arbitraries.js';

const SAMPLES = Number(process.env['MOCK_FUZZ_SAMPLES'] ?? 1000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261126);
const SEEDS_PER_SCHEMA = 5;

describe('sample generator over the generator-fuzz manifests', () => {
  it(`${SAMPLES} samples (seed ${SEED}): every value returned validates; the rest fail with a pointer`, () => {
    const ajv = { '2020-12': createAjv('2020-12', { standalone: false }), 'draft-07': createAjv('draft-07', { standalone: false }) };
    let produced = 0;
    let unsatisfied = 0;
    let uncompilable = 0;
    let batch = 0;
    while (produced + unsatisfied < SAMPLES) {
      const manifests = fc.sample(manifestArbitrary, { seed: SEED + batch++, numRuns: 50 });
      for (const manifest of manifests) {
        for (const tool of manifest['tools'] as Record<string, unknown>[]) {
          const raw = tool['outputSchema'] as Record<string, unknown> | undefined;
          if (raw === undefined || produced + unsatisfied >= SAMPLES) continue;
          const schema = as2020(raw);
          const dialect: Dialect = isDraft07Schema(raw) ? 'draft-07' : '2020-12';
          let validate;
          try {
            validate = ajv[dialect].compile(schema);
            // A `$ref` cycle that consumes no data overflows the stack on any value: no server could serve it.
            validate({});
          } catch {
            uncompilable++; // the loader refuses these manifests, or no server could run them
            continue;
          }
          for (let seed = 0; seed < SEEDS_PER_SCHEMA; seed++) {
            try {
              const value = sampleValue({ schema, seed, path: String(tool['name']), validate, label: 'fuzz tool' });
              // Judged again, after the generator handed it over (a value it changed later would show here).
              if (!validate(value)) throw new Error(`invalid sample ${JSON.stringify(value)} for ${JSON.stringify(schema)}: ${JSON.stringify(validate.errors)}`);
              produced++;
            } catch (error) {
              if (!(error instanceof SampleError)) throw error;
              expect(error.message).toMatch(/^cannot generate a value for fuzz tool after \d+ attempts: at \/\S*/);
              unsatisfied++;
            }
          }
          ajv[dialect].removeSchema(schema);
        }
      }
    }
    console.log(`sample fuzz: ${produced} values produced and validated, ${unsatisfied} unsatisfiable schemas reported, ${uncompilable} schemas refused`);
    // Not vacuous: most random schemas do have values, and the generator finds them.
    expect(produced).toBeGreaterThan(SAMPLES * 0.6);
  }, 600_000);
});
