/**
 * Split invariance, long runs of the properties split.test.ts and sse.test.ts run quickly: SSE,
 * stdio on both sides, JSON-RPC batches and the server's HTTP bodies. `SPLIT_RUNS` scales them,
 * `SPLIT_SEED` replays one seed.
 */
import { describe, it } from 'vitest';
import { httpBodySplitInvariance } from './http-body-property.js';
import { sseSplitInvariance } from './sse-property.js';
import { stdioClientSplitInvariance, stdioServerSplitInvariance } from './stdio-property.js';

const SCALE = Number(process.env['SPLIT_RUNS'] ?? 1);
const SEED = process.env['SPLIT_SEED'] === undefined ? undefined : Number(process.env['SPLIT_SEED']);

describe('split invariance (long)', () => {
  it('SSE', () => sseSplitInvariance(10_000 * SCALE, SEED), 300_000);
  it('stdio, client side', () => stdioClientSplitInvariance(5000 * SCALE, SEED), 300_000);
  it('stdio, server side', () => stdioServerSplitInvariance(1000 * SCALE, SEED), 300_000);
  it('HTTP bodies, server side', () => httpBodySplitInvariance(1000 * SCALE, SEED), 300_000);
});
