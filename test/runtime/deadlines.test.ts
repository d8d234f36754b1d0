// The handler timeout runs on one timer per server: entries expire in the order they were added,
// each no earlier than its own deadline, and an entry deleted in time never expires.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { Deadlines, type DeadlineEntry } from '../../src/runtime/protocol/deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadlines', () => {
  it('expires entries in order, each after its own timeout, and skips deleted ones', async () => {
    const expired: { name: string; after: number }[] = [];
    const deadlines = new Deadlines(60);
    const entry = (name: string): DeadlineEntry => {
      const added = performance.now();
      const e: DeadlineEntry = {
        deadlineAt: 0,
        deadlinePrevious: undefined,
        deadlineNext: undefined,
        timedOut: () => expired.push({ name, after: performance.now() - added }),
      };
      deadlines.add(e);
      return e;
    };
    entry('a');
    const b = entry('b');
    await sleep(25);
    entry('c');
    const d = entry('d');
    const e = entry('e');
    deadlines.delete(b);
    await sleep(20);
    deadlines.delete(d);
    deadlines.delete(d); // twice is harmless
    await sleep(120);
    expect(expired.map((x) => x.name)).toEqual(['a', 'c', 'e']);
    for (const x of expired) expect(x.after).toBeGreaterThanOrEqual(59);
    expect([b.deadlineAt, d.deadlineAt, e.deadlineAt]).toEqual([0, 0, 0]);
    // The queue is empty again; a new entry arms a new timer.
    entry('f');
    await sleep(100);
    expect(expired.map((x) => x.name)).toEqual(['a', 'c', 'e', 'f']);
  });

  it('does not keep the process alive', async () => {
    const { execFileSync } = await import('node:child_process');
    const started = performance.now();
    // A 30 s deadline left pending: the child must still exit at once (dist/ is built by `npm test`).
    const script =
      "const { Deadlines } = await import('./dist/runtime/protocol/deadlines.js'); new Deadlines(30000).add({ deadlineAt: 0, timedOut() {} });";
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
