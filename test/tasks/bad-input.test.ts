/**
 * Bad task and list requests over raw JSON-RPC (stdio), in both eras: each is a protocol error
 * with the right code, changes nothing, and the server keeps serving the connection (and others).
 * - a task id that is unknown, another session's, or from the other era;
 * - `tasks/update` of a task not waiting for input (2026-07-28), or at all (not a 2025-11-25 method);
 * - a list cursor issued by another list (tools/list ↔ tasks/list);
 * - a disabled tool's name, called plainly or as a task.
 * The codes: -32602 (invalid params) for the ids, cursors and tool names; -32601 for a method the
 * era does not have.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/runtime/index.js';
import { Wire, meta, pollUntil, taskDefinition, taskHandlers } from './task-server.js';

const TASK_NOT_FOUND = /^Failed to retrieve task: Task not found/;
const INVALID_CURSOR = (method: string) => `Invalid cursor: it was not issued by this server's ${method}`;

/** The task demo with pages of two (so tools/list has a second page, and a cursor to misuse). */
function demo() {
  const levers = taskHandlers();
  const server = createServer({ ...taskDefinition(), pageSize: 2 }, levers.handlers, { logger: () => {}, tasks: {} });
  return { server, ...levers };
}

describe('2025-11-25: bad task requests', () => {
  it('unknown, foreign and other-era task ids are -32602 for get, result and cancel; the owner’s task is untouched', async () => {
    const { server, release } = demo();
    const owner = new Wire(server);
    const stranger = new Wire(server);
    const stateless = new Wire(server);
    await owner.initialize();
    await stranger.initialize();
    const { taskId } = (await owner.request('tools/call', { name: 'export_report', arguments: { rows: 1 }, task: {} }))['result']['task'];
    const statelessTask = (await stateless.request('tools/call', { name: 'export_report', arguments: { rows: 2 }, _meta: meta() }))['result']['taskId'];
    for (const id of ['no-such-task', taskId, statelessTask]) {
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
        const answer = await stranger.request(method, { taskId: id });
        expect(answer['error']?.['code'], `${method} ${id}`).toBe(-32602);
        expect(answer['error']['message']).toMatch(TASK_NOT_FOUND);
      }
    }
    expect((await stranger.request('tasks/get', { taskId: 42 }))['error']).toMatchObject({ code: -32602, message: 'Invalid params for tasks/get: taskId must be a string' });
    // Nothing changed: the owner's task still works, the 2026-07-28 one too; both connections are served.
    expect((await owner.request('tasks/get', { taskId }))['result']['status']).toBe('working');
    expect((await stateless.request('tasks/get', { taskId: statelessTask, _meta: meta() }))['result']['status']).toBe('working');
    expect((await stranger.request('tasks/list'))['result']['tasks']).toEqual([]);
    release();
    expect((await owner.request('tasks/result', { taskId }))['result']['structuredContent']).toEqual({ url: 'https://files.example/report-1.csv', rows: 1 });
    owner.close();
    stranger.close();
    stateless.close();
  });

  it('tasks/update is not a method of this revision (-32601), whatever the task’s state', async () => {
    const { server, release } = demo();
    const wire = new Wire(server);
    await wire.initialize();
    const { taskId } = (await wire.request('tools/call', { name: 'export_report', arguments: { rows: 3 }, task: {} }))['result']['task'];
    expect((await wire.request('tasks/update', { taskId, inputResponses: {} }))['error']['code']).toBe(-32601);
    expect((await wire.request('tasks/get', { taskId }))['result']['status']).toBe('working');
    release();
    expect((await wire.request('tasks/result', { taskId }))['result']['structuredContent']['rows']).toBe(3);
    wire.close();
  });

  it('a cursor from another list is -32602 both ways (tools/list ↔ tasks/list), and each list still pages', async () => {
    const { server, release } = demo();
    const wire = new Wire(server);
    await wire.initialize();
    for (const rows of [1, 2, 3]) await wire.request('tools/call', { name: 'export_report', arguments: { rows }, task: {} });
    const toolsCursor = (await wire.request('tools/list'))['result']['nextCursor'];
    const tasksCursor = (await wire.request('tasks/list'))['result']['nextCursor'];
    expect(typeof toolsCursor).toBe('string');
    expect(typeof tasksCursor).toBe('string');
    expect((await wire.request('tasks/list', { cursor: toolsCursor }))['error']).toEqual({ code: -32602, message: INVALID_CURSOR('tasks/list') });
    expect((await wire.request('tools/list', { cursor: tasksCursor }))['error']).toEqual({ code: -32602, message: INVALID_CURSOR('tools/list') });
    expect((await wire.request('tasks/list', { cursor: tasksCursor + 'x' }))['error']['code']).toBe(-32602);
    expect((await wire.request('tasks/list', { cursor: 7 }))['error']['code']).toBe(-32602);
    expect((await wire.request('tasks/list', { cursor: tasksCursor }))['result']['tasks']).toHaveLength(1);
    expect((await wire.request('tools/list', { cursor: toolsCursor }))['result']['tools']).toHaveLength(1);
    release();
    wire.close();
  });

  it('a disabled tool is -32602 called plainly or as a task, and no task is created', async () => {
    const { server } = demo();
    const wire = new Wire(server);
    await wire.initialize();
    server.tools.disable('export_report');
    for (const params of [{ name: 'export_report', arguments: { rows: 1 } }, { name: 'export_report', arguments: { rows: 1 }, task: {} }]) {
      expect((await wire.request('tools/call', params))['error']).toEqual({ code: -32602, message: 'Tool export_report is disabled' });
    }
    expect((await wire.request('tasks/list'))['result']['tasks']).toEqual([]);
    expect((await wire.request('tools/call', { name: 'quick', arguments: {} }))['result']['content'][0]['text']).toBe('done');
    wire.close();
  });
});

describe('2026-07-28: bad task requests', () => {
  it('unknown and session-owned task ids are -32602 for get, update and cancel', async () => {
    const { server, release } = demo();
    const session = new Wire(server);
    const wire = new Wire(server);
    await session.initialize();
    const { taskId: sessionTask } = (await session.request('tools/call', { name: 'export_report', arguments: { rows: 4 }, task: {} }))['result']['task'];
    for (const id of ['no-such-task', sessionTask]) {
      for (const [method, extra] of [
        ['tasks/get', {}],
        ['tasks/update', { inputResponses: {} }],
        ['tasks/cancel', {}],
      ] as const) {
        const answer = await wire.request(method, { taskId: id, ...extra, _meta: meta() });
        expect(answer['error']?.['code'], `${method} ${id}`).toBe(-32602);
        expect(answer['error']['message']).toMatch(TASK_NOT_FOUND);
      }
    }
    expect((await session.request('tasks/get', { taskId: sessionTask }))['result']['status']).toBe('working');
    release();
    session.close();
    wire.close();
  });

  it('tasks/update of a task not waiting for input, working or completed, is -32602 and leaves it as it was', async () => {
    const { server, release } = demo();
    const wire = new Wire(server);
    const { taskId } = (await wire.request('tools/call', { name: 'export_report', arguments: { rows: 5 }, _meta: meta() }))['result'];
    const working = await wire.request('tasks/update', { taskId, inputResponses: { approval: { action: 'accept' } }, _meta: meta() });
    expect(working['error']).toMatchObject({ code: -32602, message: expect.stringContaining('is not waiting for input here: its status is working') });
    expect((await wire.request('tasks/get', { taskId, _meta: meta() }))['result']['status']).toBe('working');
    release();
    const done = await pollUntil(wire, { taskId, _meta: meta() }, (t) => t['status'] === 'completed');
    const completed = await wire.request('tasks/update', { taskId, inputResponses: { approval: { action: 'accept' } }, _meta: meta() });
    expect(completed['error']).toMatchObject({ code: -32602, message: expect.stringContaining('its status is completed') });
    expect((await wire.request('tasks/get', { taskId, _meta: meta() }))['result']).toEqual(done);
    wire.close();
  });

  it('a cursor from another list is -32602, and tasks/list is not a method of this revision (-32601)', async () => {
    const { server } = demo();
    const session = new Wire(server);
    const wire = new Wire(server);
    await session.initialize();
    const toolsCursor = (await wire.request('tools/list', { _meta: meta() }))['result']['nextCursor'];
    expect((await wire.request('tasks/list', { cursor: toolsCursor, _meta: meta() }))['error']['code']).toBe(-32601);
    // A cursor a stateful session got from tasks/list means nothing to tools/list here either.
    for (const rows of [1, 2, 3]) await session.request('tools/call', { name: 'export_report', arguments: { rows }, task: {} });
    const tasksCursor = (await session.request('tasks/list'))['result']['nextCursor'];
    expect((await wire.request('tools/list', { cursor: tasksCursor, _meta: meta() }))['error']).toEqual({ code: -32602, message: INVALID_CURSOR('tools/list') });
    expect((await wire.request('tools/list', { cursor: toolsCursor, _meta: meta() }))['result']['tools']).toHaveLength(1);
    session.close();
    wire.close();
  });

  it('a disabled tool is -32602 with or without the tasks extension, and the server keeps serving', async () => {
    const { server } = demo();
    const wire = new Wire(server);
    server.tools.disable('export_report');
    for (const capabilities of [{ extensions: { 'io.modelcontextprotocol/tasks': {} } }, {}]) {
      const answer = await wire.request('tools/call', { name: 'export_report', arguments: { rows: 1 }, _meta: meta(capabilities) });
      expect(answer['error']).toEqual({ code: -32602, message: 'Tool export_report is disabled' });
    }
    expect((await wire.request('tools/call', { name: 'quick', arguments: {}, _meta: meta() }))['result']['content'][0]['text']).toBe('done');
    server.tools.enable('export_report');
    expect((await wire.request('tools/call', { name: 'export_report', arguments: { rows: 1 }, _meta: meta() }))['result']['resultType']).toBe('task');
    wire.close();
  });
});
