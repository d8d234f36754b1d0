/**
 * The in-memory task store drops expired records that nobody reads again (a client that starts
 * tasks and never asks for them): records held stay within twice what is live, plus the first 64.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryTaskStore } from '../../src/runtime/index.js';
import type { TaskRecord } from '../../src/runtime/server/task-store.js';

/** A completed task, created `agoMs` before now and kept `ttlMs` from then. */
function record(taskId: string, ttlMs: number, agoMs = 0): TaskRecord {
  const created = new Date(Date.now() - agoMs).toISOString();
  return { taskId, owner: 'session:a', status: 'completed', createdAt: created, lastUpdatedAt: created, ttlMs, pollIntervalMs: 500, result: { content: [] } };
}

describe('InMemoryTaskStore', () => {
  it('sweeps expired records on save, so that they cannot pile up', async () => {
    const store = new InMemoryTaskStore();
    // Expired as they are saved (kept 1 s from a minute ago): as a finished task nobody reads again.
    for (let i = 0; i < 10_000; i++) await store.save(record(`short-${i}`, 1000, 60_000));
    // A record is kept at least 1 ms: only those of the last millisecond or so are still held.
    expect(store.size).toBeLessThan(5_000);
    for (let i = 0; i < 5_000; i++) await store.save(record(`long-${i}`, 60_000));
    // Without sweeping: 15 000.
    expect(store.size).toBeGreaterThanOrEqual(5_000);
    expect(store.size).toBeLessThanOrEqual(2 * 5_000 + 64);
    expect(await store.load('long-0')).toMatchObject({ taskId: 'long-0', status: 'completed' });
    expect(await store.load('short-0')).toBeUndefined();
  });

  it('keeps every live record however many there are', async () => {
    const store = new InMemoryTaskStore();
    for (let i = 0; i < 3_000; i++) await store.save(record(`t-${i}`, 60_000));
    expect(store.size).toBe(3_000);
    expect((await store.list('session:a')).length).toBe(3_000);
  });
});
