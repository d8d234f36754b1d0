// The JSON text of request ids must not outlive the response (bench/RESULTS.md, `bench:memory`).
// `'' + id` went through V8's number-to-string cache, which keeps each id's string until its slot is
// reused thousands of ids later: with upward-numbered requests every id's string was promoted to the
// old generation, and that trickle made V8 grow its young generation under 100 000 calls.
import { setFlagsFromString, getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { idJson } from '../../src/runtime/protocol/jsonrpc.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;
}

describe('id text', () => {
  it('is garbage in the young generation once the response is built', () => {
    const ids = 40_000;
    let length = 0;
    const run = (from: number): void => {
      for (let id = from; id < from + ids; id++) {
        length += idJson(id).length;
        if (id % 1000 === 0) gc({ type: 'minor' });
      }
    };
    run(1_000_000); // warm up: compile idJson, settle the caches
    gc({ type: 'major' });
    const before = oldSpaceUsed();
    run(2_000_000);
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    const promoted = oldSpaceUsed() - before;
    expect(length).toBeGreaterThan(0);
    // Each promoted id string costs 16–24 bytes: the cached conversion promoted ≈ 0.8 MB here.
    expect(promoted).toBeLessThan(100_000);
  });

  it('is the id as JSON', () => {
    expect([idJson(0), idJson(-7), idJson(2 ** 53 - 1), idJson('a"b')]).toEqual(['0', '-7', '9007199254740991', '"a\\"b"']);
  });
});
