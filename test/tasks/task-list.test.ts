/**
 * 2025-11-25 `tasks/list` in pages: the definition's `pageSize` (the manifest's list setting) per
 * page, oldest first, opaque cursors that name the last task of their page, so tasks created while
 * a client pages through show up at the end and none is listed twice.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/runtime/index.js';
import { Wire, taskDefinition, taskHandlers } from './task-server.js';

describe('2025-11-25 tasks/list pages', () => {
  it('pages the session’s tasks by pageSize, oldest first, each listed once, with opaque cursors', async () => {
    const levers = taskHandlers();
    const server = createServer({ ...taskDefinition(), pageSize: 2 }, levers.handlers, { logger: () => {}, tasks: {} });
    const wire = new Wire(server);
    await wire.initialize();
    const started: string[] = [];
    for (const rows of [1, 2, 3, 4, 5]) {
      started.push((await wire.request('tools/call', { name: 'export_report', arguments: { rows }, task: {} }))['result']['task']['taskId']);
    }
    const first = (await wire.request('tasks/list'))['result'];
    expect(first['tasks']).toHaveLength(2);
    expect(typeof first['nextCursor']).toBe('string');
    for (const taskId of started) expect(first['nextCursor']).not.toContain(taskId);
    // A task created while paging (a moment later than the others) comes last; nothing listed comes again.
    await new Promise((resolve) => setTimeout(resolve, 5));
    started.push((await wire.request('tools/call', { name: 'export_report', arguments: { rows: 6 }, task: {} }))['result']['task']['taskId']);
    const listed = [...first['tasks']];
    let cursor: string | undefined = first['nextCursor'];
    const sizes = [first['tasks'].length];
    while (cursor !== undefined) {
      const page = (await wire.request('tasks/list', { cursor }))['result'];
      sizes.push(page['tasks'].length);
      listed.push(...page['tasks']);
      cursor = page['nextCursor'];
    }
    expect(sizes).toEqual([2, 2, 2]);
    const ids = listed.map((t: { taskId: string }) => t.taskId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...started].sort());
    expect(ids.at(-1)).toBe(started.at(-1));
    // Oldest first (tasks created in the same millisecond are ordered by id).
    const created = listed.map((t: { createdAt: string }) => t.createdAt);
    expect(created).toEqual([...created].sort());
    expect(listed.every((t: { status: string }) => t.status === 'working')).toBe(true);
    levers.release();
    wire.close();
  });

  it('without pageSize every task fits one page of 100', async () => {
    const levers = taskHandlers();
    const server = createServer(taskDefinition(), levers.handlers, { logger: () => {}, tasks: {} });
    const wire = new Wire(server);
    await wire.initialize();
    for (const rows of [1, 2, 3]) await wire.request('tools/call', { name: 'export_report', arguments: { rows }, task: {} });
    const page = (await wire.request('tasks/list'))['result'];
    expect(page['tasks']).toHaveLength(3);
    expect(page).not.toHaveProperty('nextCursor');
    levers.release();
    wire.close();
  });
});
