/**
 * Tools running as tasks, over stdio, in both eras: created, polled, given input, cancelled,
 * their results read; the protocol errors for bad task requests; task state shared through the store.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryTaskStore } from '../../src/runtime/index.js';
import { TASKS_EXTENSION, Wire, meta, pollUntil, taskServer } from './task-server.js';

const RELATED = 'io.modelcontextprotocol/related-task';

describe('2025-11-25: task-augmented tools/call', () => {
  it('declares tasks, creates the task, reports it working, then completed with the checked result', async () => {
    const { server, release } = taskServer();
    const wire = new Wire(server);
    const init = await wire.initialize();
    expect(init['result']['capabilities']['tasks']).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const created = await wire.request('tools/call', { name: 'export_report', arguments: { rows: 3 }, task: { ttl: 60_000 } });
    const task = created['result']['task'];
    expect(task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 500 });
    expect(typeof task.taskId).toBe('string');
    expect((await wire.request('tasks/get', { taskId: task.taskId }))['result']).toMatchObject({ taskId: task.taskId, status: 'working' });
    const result = wire.request('tasks/result', { taskId: task.taskId });
    release();
    expect((await result)['result']).toEqual({
      content: [{ type: 'text', text: '{"url":"https://files.example/report-3.csv","rows":3}' }],
      structuredContent: { url: 'https://files.example/report-3.csv', rows: 3 },
      _meta: { [RELATED]: { taskId: task.taskId } },
    });
    expect((await wire.request('tasks/get', { taskId: task.taskId }))['result']['status']).toBe('completed');
    const status = await wire.waitFor((m) => m['method'] === 'notifications/tasks/status' && m['params']['status'] === 'completed');
    expect(status['params']['taskId']).toBe(task.taskId);
    expect((await wire.request('tasks/list'))['result']['tasks'].map((t: { taskId: string }) => t.taskId)).toEqual([task.taskId]);
    wire.close();
  });

  it('a call without params.task runs a task-optional tool plainly; a task-required one is -32601', async () => {
    const { server } = taskServer();
    const wire = new Wire(server);
    await wire.initialize();
    expect((await wire.request('tools/call', { name: 'quick', arguments: {} }))['result']['content'][0]['text']).toBe('done');
    expect((await wire.request('tools/call', { name: 'approve', arguments: {} }))['error']['code']).toBe(-32601);
    expect((await wire.request('tools/call', { name: 'quick', arguments: {}, task: {} }))['error']['code']).toBe(-32601);
    wire.close();
  });

  it('tasks/cancel aborts the handler’s signal, answers the cancelled task, and the task stays cancelled', async () => {
    const { server, aborted, release } = taskServer();
    const wire = new Wire(server);
    await wire.initialize();
    const { taskId } = (await wire.request('tools/call', { name: 'export_report', arguments: { rows: 9 }, task: {} }))['result']['task'];
    const cancelled = await wire.request('tasks/cancel', { taskId });
    expect(cancelled['result']).toMatchObject({ taskId, status: 'cancelled' });
    expect(aborted).toEqual(['export_report 9']);
    release();
    expect((await wire.request('tasks/get', { taskId }))['result']['status']).toBe('cancelled');
    expect((await wire.request('tasks/cancel', { taskId }))['error']).toMatchObject({ code: -32602, message: "Cannot cancel task: already in terminal status 'cancelled'" });
    wire.close();
  });

  it('input through context.elicit: the request carries the related task, the task is input_required until answered', async () => {
    const { server } = taskServer();
    const wire = new Wire(server);
    await wire.initialize({ elicitation: {} });
    const { taskId } = (await wire.request('tools/call', { name: 'approve', arguments: {}, task: {} }))['result']['task'];
    const ask = await wire.waitFor((m) => m['method'] === 'elicitation/create');
    expect(ask['params']['_meta'][RELATED]).toEqual({ taskId });
    expect((await wire.request('tasks/get', { taskId }))['result']['status']).toBe('input_required');
    wire.send({ id: ask['id'], result: { action: 'accept', content: { ok: true } } });
    expect((await wire.request('tasks/result', { taskId }))['result']['content'][0]['text']).toBe('approved');
    wire.close();
  });
});

describe('2026-07-28: the tasks extension (server-directed)', () => {
  it('a client declaring the extension gets a CreateTaskResult; tasks/get inlines the result once done', async () => {
    const { server, release } = taskServer();
    const wire = new Wire(server);
    const discover = await wire.request('server/discover', { _meta: meta() });
    expect(discover['result']['capabilities']['extensions']).toEqual({ [TASKS_EXTENSION]: {} });
    const created = (await wire.request('tools/call', { name: 'export_report', arguments: { rows: 5 }, _meta: meta() }))['result'];
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 500 });
    release();
    const done = await pollUntil(wire, { taskId: created.taskId, _meta: meta() }, (t) => t['status'] === 'completed');
    expect(done).toMatchObject({ resultType: 'complete', result: { structuredContent: { rows: 5 } } });
    wire.close();
  });

  it('without the extension: an optional tool answers plainly, a required one is -32021 naming the extension', async () => {
    const { server, release } = taskServer();
    const wire = new Wire(server);
    const plain = wire.request('tools/call', { name: 'export_report', arguments: { rows: 1 }, _meta: meta({}) });
    setTimeout(release, 20);
    expect((await plain)['result']).toMatchObject({ resultType: 'complete', structuredContent: { rows: 1 } });
    const refused = await wire.request('tools/call', { name: 'approve', arguments: {}, _meta: meta({}) });
    expect(refused['error']).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
    expect((await wire.request('tasks/get', { taskId: 'x', _meta: meta({}) }))['error']['code']).toBe(-32021);
    wire.close();
  });

  it('input through context.elicit surfaces in inputRequests and is answered with tasks/update', async () => {
    const { server } = taskServer();
    const wire = new Wire(server);
    const caps = meta({ elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } });
    const { taskId } = (await wire.request('tools/call', { name: 'approve', arguments: {}, _meta: caps }))['result'];
    const waiting = await pollUntil(wire, { taskId, _meta: caps }, (t) => t['status'] === 'input_required');
    expect(waiting['inputRequests']).toEqual({ approval: { method: 'elicitation/create', params: expect.objectContaining({ message: 'Approve?' }) } });
    const ack = await wire.request('tasks/update', { taskId, inputResponses: { approval: { action: 'accept', content: { ok: true } } }, _meta: caps });
    expect(ack['result']).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const done = await pollUntil(wire, { taskId, _meta: caps }, (t) => t['status'] === 'completed');
    expect(done['result']['content'][0]['text']).toBe('approved');
    wire.close();
  });

  it('tasks/cancel acknowledges, aborts the handler, and acknowledges again once terminal', async () => {
    const { server, aborted } = taskServer();
    const wire = new Wire(server);
    const { taskId } = (await wire.request('tools/call', { name: 'export_report', arguments: { rows: 7 }, _meta: meta() }))['result'];
    expect((await wire.request('tasks/cancel', { taskId, _meta: meta() }))['result']['resultType']).toBe('complete');
    expect(aborted).toEqual(['export_report 7']);
    expect((await wire.request('tasks/get', { taskId, _meta: meta() }))['result']['status']).toBe('cancelled');
    expect((await wire.request('tasks/cancel', { taskId, _meta: meta() }))['result']).not.toHaveProperty('status');
    wire.close();
  });

  it('tasks/result and tasks/list are not methods of this revision (-32601)', async () => {
    const { server } = taskServer();
    const wire = new Wire(server);
    expect((await wire.request('tasks/result', { taskId: 'x', _meta: meta() }))['error']['code']).toBe(-32601);
    expect((await wire.request('tasks/list', { _meta: meta() }))['error']['code']).toBe(-32601);
    wire.close();
  });
});

describe('bad task requests: a clear protocol error, nothing changes, the server keeps serving', () => {
  it('tasks/get of an unknown id, and of another connection’s task, is -32602 alike', async () => {
    const { server, release } = taskServer();
    const owner = new Wire(server);
    const stranger = new Wire(server);
    await owner.initialize();
    await stranger.initialize();
    const { taskId } = (await owner.request('tools/call', { name: 'export_report', arguments: { rows: 2 }, task: {} }))['result']['task'];
    const unknown = await stranger.request('tasks/get', { taskId: 'no-such-task' });
    const foreign = await stranger.request('tasks/get', { taskId });
    expect(unknown['error']['code']).toBe(-32602);
    expect(foreign['error']['code']).toBe(-32602);
    expect(foreign['error']['message']).toMatch(/^Failed to retrieve task: Task not found/);
    expect((await stranger.request('tasks/cancel', { taskId }))['error']['code']).toBe(-32602);
    // A 2026-07-28 client cannot reach a session's task either.
    expect((await stranger.request('tasks/get', { taskId, _meta: meta() }))['error']['code']).toBe(-32602);
    // Nothing changed for the owner, and both connections are still served.
    expect((await owner.request('tasks/get', { taskId }))['result']['status']).toBe('working');
    expect((await stranger.request('tools/call', { name: 'quick', arguments: {} }))['result']['content'][0]['text']).toBe('done');
    release();
    expect((await owner.request('tasks/result', { taskId }))['result']['structuredContent']).toEqual({ url: 'https://files.example/report-2.csv', rows: 2 });
    owner.close();
    stranger.close();
  });

  it('tasks/update of a task not waiting for input is -32602 and leaves the task as it was', async () => {
    const { server, release } = taskServer();
    const wire = new Wire(server);
    const { taskId } = (await wire.request('tools/call', { name: 'export_report', arguments: { rows: 4 }, _meta: meta() }))['result'];
    const refused = await wire.request('tasks/update', { taskId, inputResponses: { approval: { action: 'accept' } }, _meta: meta() });
    expect(refused['error']).toMatchObject({ code: -32602, message: expect.stringContaining('is not waiting for input here: its status is working') });
    expect((await wire.request('tasks/get', { taskId, _meta: meta() }))['result']['status']).toBe('working');
    expect((await wire.request('tasks/update', { taskId: 'no-such-task', inputResponses: {}, _meta: meta() }))['error']['code']).toBe(-32602);
    expect((await wire.request('tasks/update', { taskId, inputResponses: 'yes', _meta: meta() }))['error']['code']).toBe(-32602);
    release();
    expect((await pollUntil(wire, { taskId, _meta: meta() }, (t) => t['status'] === 'completed'))['result']['structuredContent']['rows']).toBe(4);
    wire.close();
  });
});

describe('a bound on running tasks', () => {
  it('a task beyond tasks.maxRunning is refused with -32000, and accepted again once one has finished', async () => {
    const { server, release } = taskServer({ maxRunning: 1 });
    const wire = new Wire(server);
    const { taskId } = (await wire.request('tools/call', { name: 'export_report', arguments: { rows: 1 }, _meta: meta() }))['result'];
    const refused = await wire.request('tools/call', { name: 'export_report', arguments: { rows: 2 }, _meta: meta() });
    expect(refused['error']).toMatchObject({ code: -32000, message: 'Too many tasks running: at most 1 at once; retry when one has finished' });
    release();
    await pollUntil(wire, { taskId, _meta: meta() }, (t) => t['status'] === 'completed');
    expect((await wire.request('tools/call', { name: 'export_report', arguments: { rows: 3 }, _meta: meta() }))['result']['resultType']).toBe('task');
    release();
    wire.close();
  });
});

describe('task state lives in the store', () => {
  it('a second server sharing the store answers tasks/get for a task the first one runs', async () => {
    const store = new InMemoryTaskStore();
    const first = taskServer({ store });
    const second = taskServer({ store });
    const a = new Wire(first.server);
    const b = new Wire(second.server);
    const { taskId } = (await a.request('tools/call', { name: 'export_report', arguments: { rows: 8 }, _meta: meta() }))['result'];
    expect((await b.request('tasks/get', { taskId, _meta: meta() }))['result']).toMatchObject({ taskId, status: 'working' });
    first.release();
    const done = await pollUntil(b, { taskId, _meta: meta() }, (t) => t['status'] === 'completed');
    expect(done['result']['structuredContent']).toEqual({ url: 'https://files.example/report-8.csv', rows: 8 });
    a.close();
    b.close();
  });
});
