/**
 * The in-memory event store keeps the newest events within both its limits (events and characters),
 * so that large messages sent on a session's streams cannot pile up without end; the newest event
 * is kept whatever its size; what was dropped can no longer be resumed from.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../src/runtime/index.js';

async function replay(store: InMemoryEventStore, after: string): Promise<{ stream: string | undefined; ids: string[] }> {
  const ids: string[] = [];
  const stream = await store.replayEventsAfter(after, (id) => void ids.push(id));
  return { stream, ids };
}

describe('InMemoryEventStore', () => {
  it('drops the oldest events past maxChars, and resumes only from what it kept', async () => {
    const store = new InMemoryEventStore({ maxChars: 1000 });
    const big = 'x'.repeat(300);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await store.storeEvent('s/1', big));
    // 300 characters each: the newest three fit in 1000.
    expect(await replay(store, ids[7]!)).toEqual({ stream: 's/1', ids: ids.slice(8) });
    expect(await replay(store, ids[6]!)).toEqual({ stream: undefined, ids: [] });
  });

  it('drops the oldest events past maxEvents; a number is maxEvents, as before', async () => {
    for (const store of [new InMemoryEventStore({ maxEvents: 3 }), new InMemoryEventStore(3)]) {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await store.storeEvent(`s/${i % 2}`, `m${i}`));
      expect((await replay(store, ids[1]!)).stream).toBeUndefined();
      expect(await replay(store, ids[2]!)).toEqual({ stream: 's/0', ids: [ids[4]] });
    }
  });

  it('keeps the newest event however large, and accounts what it drops', async () => {
    const store = new InMemoryEventStore({ maxChars: 100 });
    const first = await store.storeEvent('s/1', 'a'.repeat(50));
    const huge = await store.storeEvent('s/1', 'b'.repeat(500));
    expect((await replay(store, first)).stream).toBeUndefined();
    const after = await store.storeEvent('s/1', 'c'.repeat(60));
    // The huge one went as soon as another came; the small ones fit again.
    expect((await replay(store, huge)).stream).toBeUndefined();
    const next = await store.storeEvent('s/1', 'd'.repeat(30));
    expect(await replay(store, after)).toEqual({ stream: 's/1', ids: [next] });
  });

  it('holds a bounded amount however many large messages go through it', async () => {
    const store = new InMemoryEventStore();
    const megabyte = 'y'.repeat(1024 * 1024);
    let last = '';
    for (let i = 0; i < 200; i++) last = await store.storeEvent(`s/${i}`, megabyte);
    let kept = 0;
    let oldest: string | undefined;
    // Every id from the first on: count those still there.
    for (let i = 1; i <= 200; i++) {
      const id = `s/${i - 1}:${i}`;
      if ((await replay(store, id)).stream !== undefined) {
        kept++;
        oldest ??= id;
      }
    }
    expect(kept).toBe(64);
    expect(oldest).toBe('s/136:137');
    expect((await replay(store, last)).stream).toBe('s/199');
  });
});
