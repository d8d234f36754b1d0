// The handler timeout runs on one timer per server: entries expire in the order they were added,
// each no earlier than its own deadline, and an entry deleted in time never expires.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../src/runtime/deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadlines', () => {
  it('expires entries in order, each after its own timeout, and skips deleted ones', async () => {
    const expired: { name: string; after: number }[] = [];
    const added = new Map<string, number>();
    const deadlines = new Deadlines<string>(60, (name) => expired.push({ name, after: performance.now() - added.get(name)! }));
    const add = (name: string) => {
      added.set(name, performance.now());
      deadlines.add(name);
    };
    add('a');
    add('b');
    await sleep(25);
    add('c');
    add('d');
    deadlines.delete('b');
    await sleep(20);
    deadlines.delete('d');
    await sleep(120);
    expect(expired.map((e) => e.name)).toEqual(['a', 'c']);
    for (const e of expired) expect(e.after).toBeGreaterThanOrEqual(59);
    // The queue is empty again; a new entry arms a new timer.
    add('e');
    await sleep(100);
    expect(expired.map((e) => e.name)).toEqual(['a', 'c', 'e']);
  });

  it('does not keep the process alive', async () => {
    const { execFileSync } = await import('node:child_process');
    const started = performance.now();
    // A 30 s deadline left pending: the child must still exit at once (dist/ is built by `npm test`).
    const script = "const { Deadlines } = await import('./dist/runtime/deadlines.js'); new Deadlines(30000, () => {}).add(1);";
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
