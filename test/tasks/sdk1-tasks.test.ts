/**
 * The official SDK 1.x client's experimental tasks (2025-11-25) against our server over Streamable
 * HTTP: a task started, polled, given input through the client's elicitation handler, and cancelled.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpListener } from '../../src/runtime/index.js';
import { taskServer } from './task-server.js';

let demo: ReturnType<typeof taskServer>;
let listener: HttpListener;
beforeAll(async () => {
  demo = taskServer();
  listener = await demo.server.listenHttp({ port: 0, host: '127.0.0.1' });
});
afterAll(() => listener?.close());

async function connect(): Promise<Client> {
  const client = new Client({ name: 'sdk1-tasks', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { ok: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  return client;
}

describe('SDK 1.x client tasks against our server (2025-11-25)', () => {
  it('starts a task, polls it with getTask, and receives the result from the stream', async () => {
    const client = await connect();
    const seen: string[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'export_report', arguments: { rows: 6 } }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
      seen.push(message.type);
      if (message.type === 'taskCreated') {
        expect((await client.experimental.tasks.getTask(message.task.taskId)).status).toBe('working');
        demo.release();
      }
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(seen[0]).toBe('taskCreated');
    expect(result).toMatchObject({ structuredContent: { url: 'https://files.example/report-6.csv', rows: 6 } });
    await client.close();
  });

  it('a task asking for input gets it from the client’s elicitation handler', async () => {
    const client = await connect();
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'approve', arguments: {} }, CallToolResultSchema, { task: {} })) {
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'approved' }] });
    await client.close();
  });

  it('cancelTask cancels it: the handler is aborted and the task reads cancelled', async () => {
    const client = await connect();
    const stream = client.experimental.tasks.callToolStream({ name: 'export_report', arguments: { rows: 11 } }, CallToolResultSchema, { task: {} });
    const first = await stream.next();
    expect(first.value?.type).toBe('taskCreated');
    const taskId = first.value?.type === 'taskCreated' ? first.value.task.taskId : '';
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    expect(demo.aborted).toContain('export_report 11');
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    await stream.return(undefined);
    await client.close();
  });
});
