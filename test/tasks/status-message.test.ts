/**
 * `context.setStatusMessage`: a task handler's own `statusMessage`, in both eras, over stdio and
 * Streamable HTTP. `tasks/get` shows it (2026-07-28: the CreateTaskResult too when it was set before
 * the task existed), 2025-11-25 also `tasks/list` and `notifications/tasks/status`; an input request
 * shows its own message meanwhile, the handler's comes back when the task works again, and a
 * completed task has none. A call that does not run as a task ignores it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { HttpListener } from '../../src/runtime/index.js';
import { statefulHttp, statelessHttp, type Connection } from './http-connection.js';
import { TASKS_EXTENSION, Wire, meta, taskServer } from './task-server.js';

type Message = Record<string, any>;

const listeners: HttpListener[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
});

/** What the 2026-07-28 clients here declare: the tasks extension, and elicitation. */
const CAPABILITIES = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/** 2026-07-28 requests over stdio. */
function statelessStdio(wire: Wire): Connection {
  return { request: (method, params = {}) => wire.request(method, { ...params, _meta: meta(CAPABILITIES) }) };
}

/** Polls `tasks/get` until `done` says so (at most 5 s). */
async function pollUntil(connection: Connection, taskId: string, done: (task: Message) => boolean): Promise<Message> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const answer = await connection.request('tasks/get', { taskId });
    if (answer['result'] !== undefined && done(answer['result'])) return answer['result'];
    if (Date.now() > deadline) throw new Error(`task never reached the awaited state: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Transport = 'stdio' | 'HTTP';

/** A fresh task server and a connection to it in `era` over `transport`. */
async function connect(transport: Transport, era: '2025-11-25' | '2026-07-28') {
  const served = taskServer();
  if (transport === 'HTTP') {
    const listener = await served.server.listenHttp({ port: 0 });
    listeners.push(listener);
    const connection = era === '2025-11-25' ? await statefulHttp(listener.url) : statelessHttp(listener.url, CAPABILITIES);
    return { ...served, connection, wire: undefined };
  }
  const wire = new Wire(served.server);
  if (era === '2025-11-25') await wire.initialize({ elicitation: {} });
  return { ...served, connection: era === '2025-11-25' ? (wire as Connection) : statelessStdio(wire), wire };
}

describe.each(['stdio', 'HTTP'] as const)('the handler’s status message over %s', (transport) => {
  it('2025-11-25: tasks/get and tasks/list show it as it changes, notifications carry it, a completed task has none', async () => {
    const { connection, wire, release } = await connect(transport, '2025-11-25');
    const created = await connection.request('tools/call', { name: 'export_report', arguments: { rows: 3, note: 'Reading rows', later: 'Writing the file' }, task: {} });
    const { taskId } = created['result']['task'];
    expect(await pollUntil(connection, taskId, (task) => task['statusMessage'] !== undefined)).toMatchObject({ taskId, status: 'working', statusMessage: 'Reading rows' });
    const listed = (await connection.request('tasks/list'))['result']['tasks'] as Message[];
    expect(listed.find((task) => task['taskId'] === taskId)).toMatchObject({ status: 'working', statusMessage: 'Reading rows' });
    if (wire !== undefined) {
      const note = await wire.waitFor((m) => m['method'] === 'notifications/tasks/status' && m['params']['statusMessage'] === 'Reading rows');
      expect(note['params']).toMatchObject({ taskId, status: 'working' });
    }
    release();
    expect(await pollUntil(connection, taskId, (task) => task['statusMessage'] === 'Writing the file')).toMatchObject({ status: 'working' });
    release();
    expect((await connection.request('tasks/result', { taskId }))['result']['structuredContent']).toEqual({ url: 'https://files.example/report-3.csv', rows: 3 });
    const done = (await connection.request('tasks/get', { taskId }))['result'];
    expect(done['status']).toBe('completed');
    expect(done).not.toHaveProperty('statusMessage');
    wire?.close();
  });

  it('2025-11-25: a plain call (no params.task) ignores it and answers as usual', async () => {
    const { connection, release } = await connect(transport, '2025-11-25');
    const call = connection.request('tools/call', { name: 'export_report', arguments: { rows: 4, note: 'Reading rows' } });
    // The handler sets its note, then waits to be released: the call stays unanswered till then.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect((await call)['result']['structuredContent']).toEqual({ url: 'https://files.example/report-4.csv', rows: 4 });
  });

  it('2026-07-28: the CreateTaskResult and tasks/get show it, tasks/get follows its changes, a completed task has none', async () => {
    const { connection, wire, release } = await connect(transport, '2026-07-28');
    const created = (await connection.request('tools/call', { name: 'export_report', arguments: { rows: 5, note: 'Reading rows', later: 'Writing the file' } }))['result'];
    // Set before the call became a task: the task starts with it.
    expect(created).toMatchObject({ resultType: 'task', status: 'working', statusMessage: 'Reading rows' });
    expect((await connection.request('tasks/get', { taskId: created.taskId }))['result']).toMatchObject({ status: 'working', statusMessage: 'Reading rows' });
    release();
    expect(await pollUntil(connection, created.taskId, (task) => task['statusMessage'] === 'Writing the file')).toMatchObject({ status: 'working' });
    release();
    const done = await pollUntil(connection, created.taskId, (task) => task['status'] === 'completed');
    expect(done['result']['structuredContent']).toEqual({ url: 'https://files.example/report-5.csv', rows: 5 });
    expect(done).not.toHaveProperty('statusMessage');
    wire?.close();
  });

  it('2026-07-28: an input request shows its own message, and the handler’s returns once the task works again', async () => {
    const { connection, wire, release } = await connect(transport, '2026-07-28');
    const created = (await connection.request('tools/call', { name: 'approve', arguments: { note: 'Preparing the approval' } }))['result'];
    const waiting = await pollUntil(connection, created.taskId, (task) => task['status'] === 'input_required');
    expect(waiting['statusMessage']).toBe('Waiting for input from the client');
    const updated = await connection.request('tasks/update', { taskId: created.taskId, inputResponses: { approval: { action: 'accept', content: { ok: true } } } });
    expect(updated['error']).toBeUndefined();
    expect(await pollUntil(connection, created.taskId, (task) => task['status'] === 'working')).toMatchObject({ statusMessage: 'Preparing the approval' });
    release();
    const done = await pollUntil(connection, created.taskId, (task) => task['status'] === 'completed');
    expect(done['result']['content'][0]['text']).toBe('approved');
    wire?.close();
  });
});

describe('a client without the tasks extension', () => {
  it('2026-07-28: the call runs plainly and the message goes nowhere', async () => {
    const { server, release } = taskServer();
    const wire = new Wire(server);
    const call = wire.request('tools/call', { name: 'export_report', arguments: { rows: 6, note: 'Reading rows' }, _meta: meta({}) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const answer = (await call)['result'];
    expect(answer['structuredContent']).toEqual({ url: 'https://files.example/report-6.csv', rows: 6 });
    expect(answer).not.toHaveProperty('statusMessage');
    wire.close();
  });
});
