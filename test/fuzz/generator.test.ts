/**
 * Generator fuzzing (issue 6): random manifests through `mcp-gen server`, judged by the oracle in
 * oracle.ts. Fixed seed and a bounded number of runs in `npm test`; `npm run fuzz:gen` runs longer
 * (FUZZ_RUNS, FUZZ_SEED). A failing seed is fixed at its root and kept in regressions.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestArbitrary } from './arbitraries.js';
import { checkBatch } from './oracle.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261126);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 32);
/** Manifests compiled in one tsc program. */
const BATCH = 32;

describe('generator fuzzing', () => {
  it(`${RUNS} random manifests (seed ${SEED}): rejected with positions, or strict, inert and consistent output`, async () => {
    let generated = 0;
    let rejected = 0;
    for (let start = 0; start < RUNS; start += BATCH) {
      const count = Math.min(BATCH, RUNS - start);
      const manifests = fc.sample(manifestArbitrary, { seed: SEED + start, numRuns: count });
      const root = mkdtempSync(join(tmpdir(), 'mcp-gen-fuzz-'));
      try {
        const results = await checkBatch(root, manifests);
        generated += results.filter((r) => r.outcome === 'generated').length;
        rejected += results.filter((r) => r.outcome === 'rejected').length;
      } catch (error) {
        throw new Error(`seed ${SEED + start}, batch of ${count}: ${(error as Error).message}`);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
    console.log(`generator fuzz: ${RUNS} manifests, seed ${SEED}: ${generated} generated, ${rejected} rejected`);
    // Not vacuous: both outcomes happen.
    expect(generated).toBeGreaterThan(RUNS / 8);
    expect(rejected).toBeGreaterThan(0);
  }, Math.max(120_000, RUNS * 5_000));
});
