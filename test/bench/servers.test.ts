// The benchmark is only honest if every server it times answers the workload exactly. This checks
// each bench server over stdio with the harness's own verification (not a timed test), and checks
// that the verification itself rejects near misses.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioPeer } from '../../bench/lib/client.mjs';
import { SERVERS, bundleOurs, compileServer } from '../../bench/lib/servers.mjs';
import { checkResult, checkToolList, loadWorkload, verifyPeer } from '../../bench/lib/workload.mjs';

const workload = loadWorkload();
// The generated server runs from its compiled output; compile it, and bundle it for the `bundle`
// entry, as the harness does (the suite's global setup has generated it, from this checkout's sources).
beforeAll(() => {
  compileServer(fileURLToPath(new URL('../../bench/server', import.meta.url)));
  bundleOurs();
});
const weatherCase = workload.cases['weather']!;
const searchCase = workload.cases['search']!;

describe.each(Object.keys(SERVERS))('bench server %s', (name) => {
  let peer: StdioPeer;
  beforeAll(async () => {
    peer = new StdioPeer(SERVERS[name]!);
    await peer.initialize();
  });
  afterAll(async () => {
    await peer.close();
  });

  it('lists the workload tools and returns exactly the expected result for every case', async () => {
    await expect(verifyPeer(peer, workload)).resolves.toBeUndefined();
  });

  it('computes results from the arguments (not a replayed answer)', async () => {
    // Values worked out by hand from the README's formulas.
    const oslo = (await peer.callTool('get_weather', {
      location: 'Oslo',
      units: 'fahrenheit',
    })) as {
      structuredContent: unknown;
    };
    // c = 12 + 4 % 17 + 0.5 = 16.5 → 61.7 °F; conditions[4 % 7] = Thunderstorms; 'O' = 79 → 40 + 29.
    expect(oslo.structuredContent).toEqual({
      temperature: (16.5 * 9) / 5 + 32,
      conditions: 'Thunderstorms',
      humidity: 69,
    });

    const few = (await peer.callTool('search', { query: 'ab', limit: 2 })) as {
      structuredContent: {
        query: string;
        total: number;
        results: { docId: string; snippet: string; score: number; tags: string[] }[];
      };
    };
    expect(few.structuredContent.total).toBe(2);
    expect(few.structuredContent.results.map((r) => r.docId)).toEqual(['doc-0-2', 'doc-1-2']);
    expect(few.structuredContent.results[1]).toMatchObject({
      snippet: 'This document discusses ab in section 1; it matched 1 terms of the query.',
      score: 1 - 1 / 64,
      tags: ['json-rpc', 'schema', 'server'],
    });
  });
});

describe('result verification', () => {
  const expected = weatherCase.expected;

  it('accepts the expected result', () => {
    expect(() => checkResult('weather', weatherCase, structuredClone(expected))).not.toThrow();
    expect(() =>
      checkResult('search', searchCase, structuredClone(searchCase.expected)),
    ).not.toThrow();
  });

  it('rejects a different value, an extra field, and keys out of order', () => {
    const wrongValue = structuredClone(expected);
    wrongValue.structuredContent['humidity'] = 74;
    expect(() => checkResult('weather', weatherCase, wrongValue)).toThrow(/differs/);

    expect(() =>
      checkResult('weather', weatherCase, { ...structuredClone(expected), isError: false }),
    ).toThrow(/differs/);

    const { temperature, conditions, humidity } = expected.structuredContent;
    const reordered = {
      ...structuredClone(expected),
      structuredContent: { humidity, conditions, temperature },
    };
    expect(() => checkResult('weather', weatherCase, reordered)).toThrow(/order/);
  });

  it('rejects a tool list that misses a tool or changes a schema', () => {
    expect(() => checkToolList(workload, workload.tools.slice(1))).toThrow(/lacks get_weather/);
    const renamed = structuredClone(workload.tools);
    renamed[0]!.inputSchema = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    };
    expect(() => checkToolList(workload, renamed)).toThrow(/differs/);
  });
});
