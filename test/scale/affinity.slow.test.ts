/**
 * No session affinity needed: three `--http --redis` processes of the scale fixture server behind
 * a proxy that never sends two consecutive requests of a session to the same process (cluster.ts),
 * in both eras. Whatever process a message lands on acts on it: a client's answer to a
 * server→client request reaches the handler waiting for it on another process, a task's progress
 * and input requests reach a client polling elsewhere, `notifications/cancelled` aborts a handler
 * running on another process.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, openSession, startToolTask, type ClientSession } from '../../src/runtime/client/index.js';
import { buildFixture, roundRobinProxy, startCluster, tempDir, type Cluster, type Proxy } from './cluster.js';

const running: ChildProcess[] = [];
const work = tempDir('scale');
let cluster: Cluster;
let proxy: Proxy;

beforeAll(async () => {
  const main = await buildFixture(work);
  cluster = await startCluster(main, running);
  proxy = await roundRobinProxy(cluster.servers);
}, 300_000);

afterAll(async () => {
  await proxy?.close();
  for (const child of running.reverse()) child.kill();
  rmSync(work, { recursive: true, force: true });
});

const handlers = {
  elicitation: {
    form: () => ({ action: 'accept' as const, content: { name: 'Ada', ok: true } }),
    url: () => ({ action: 'accept' as const }),
  },
  sampling: () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'hi' }, model: 'test' }),
  roots: () => ({ roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] }),
};

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

for (const era of ['2025-11-25', '2026-07-28'] as const) {
  describe(`our client, ${era}, three processes without affinity`, () => {
    let session: ClientSession;
    beforeAll(async () => {
      session = await openSession({ url: proxy.url, protocolVersions: [era], handlers });
    });
    afterAll(() => session?.close());

    it('answers 50 plain calls', async () => {
      for (let i = 0; i < 50; i++) expect(text(await callTool(session, { name: 'add' }, { a: i, b: 1 }))).toBe(String(i + 1));
    });

    it('finishes elicitation, URL elicitation, sampling and roots rounds', async () => {
      const timeoutMs = 8000;
      expect(text(await callTool(session, { name: 'ask_name' }, {}, { timeoutMs }))).toBe('Hello, Ada');
      expect(text(await callTool(session, { name: 'ask_link' }, {}, { timeoutMs }))).toBe('link: accept');
      expect(text(await callTool(session, { name: 'ask_model' }, {}, { timeoutMs }))).toBe('model: hi');
      expect(text(await callTool(session, { name: 'count_roots' }, {}, { timeoutMs }))).toBe('roots: file:///a,file:///b');
    });

    // Three runs each: the task, its polls, its tasks/result and the client's answers land on every
    // process in turn relative to the one running the handler.
    it('brings a task\'s progress to a client polling other processes', async () => {
      for (let run = 0; run < 3; run++) {
        const seen: number[] = [];
        const messages = new Set<string>();
        const task = await startToolTask(session, { name: 'count_up' }, {}, { onProgress: (p) => seen.push(p.progress), pollIntervalMs: 50, timeoutMs: 8000 });
        if (era === '2026-07-28') {
          // No progress notifications on a 2026-07-28 task: polls read it as the status message.
          for (let i = 0; i < 40; i++) {
            const status = await task.status({ timeoutMs: 8000 });
            if (status.statusMessage !== undefined) messages.add(status.statusMessage);
            if (status.status !== 'working') break;
            await new Promise((resolve) => setTimeout(resolve, 40));
          }
        }
        expect(text(await task.result({ timeoutMs: 8000 }))).toBe('counted to 10');
        if (era === '2025-11-25') expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        else expect([...messages].filter((m) => /^step \d+$/.test(m)).length).toBeGreaterThan(2);
      }
    });

    it('runs a task that asks for input, polled and answered through other processes', async () => {
      for (let run = 0; run < 3; run++) {
        const task = await startToolTask(session, { name: 'confirm_task' }, {}, { pollIntervalMs: 50, timeoutMs: 8000 });
        expect(text(await task.result({ timeoutMs: 8000 }))).toBe('confirmed');
      }
    });

    it('resumes, on another process, a stream its process ended early', async () => {
      const seen: number[] = [];
      expect(text(await callTool(session, { name: 'cut_stream' }, {}, { onProgress: (p) => seen.push(p.progress), timeoutMs: 8000 }))).toBe('arrived on the resumed stream');
      expect(seen).toEqual([1, 2]);
      if (era === '2025-11-25') expect(proxy.served.filter((r) => r.method === 'GET' && r.session !== '').length).toBeGreaterThan(0);
    });

    it('aborts, from another process, the handler of a cancelled request', async () => {
      const before = cluster.logs.join('').split('wait_for_cancel: aborted').length;
      const controller = new AbortController();
      const call = callTool(session, { name: 'wait_for_cancel' }, {}, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 300));
      controller.abort(new Error('changed my mind'));
      await expect(call).rejects.toThrow();
      const deadline = Date.now() + 5000;
      while (cluster.logs.join('').split('wait_for_cancel: aborted').length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(cluster.logs.join('').split('wait_for_cancel: aborted').length).toBe(before + 1);
    });
  });
}

/** One JSON-RPC message POSTed to one process, with the headers of its era; the parsed answer (JSON or the last SSE data). */
async function post(url: URL, body: Record<string, unknown>, headers: Record<string, string>): Promise<{ status: number; message: Record<string, any> | undefined }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  const data = text.startsWith('{') ? text : [...text.matchAll(/^data: (.+)$/gm)].at(-1)?.[1];
  return { status: response.status, message: data === undefined ? undefined : (JSON.parse(data) as Record<string, any>) };
}

const aborted = (): number => cluster.logs.join('').split('wait_for_cancel: aborted').length - 1;

describe('messages landing on a process that does not hold what they are for', () => {
  it('2025-11-25: notifications/cancelled sent to another process aborts the handler, whose request stays open', async () => {
    const [p0, p1, p2] = cluster.servers as [URL, URL, URL];
    const init = await fetch(p0, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    expect((await post(p2, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const before = aborted();
    const call = post(p1, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait_for_cancel' } }, headers);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post(p2, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'no longer needed' } }, headers)).status).toBe(202);
    // The cancelled request ends without an answer (its handler saw the abort), well before its 20 s.
    const started = Date.now();
    expect((await call).message).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(aborted()).toBe(before + 1);
    expect(cluster.logs[1]).toContain('wait_for_cancel: aborted (Error: no longer needed)');
  });

  it('2026-07-28: tasks/update sent to a process that does not run the task reaches the one that does', async () => {
    const [p0, p1, p2] = cluster.servers as [URL, URL, URL];
    let id = 100;
    const send = (url: URL, method: string, params: Record<string, unknown>) =>
      post(
        url,
        {
          jsonrpc: '2.0',
          id: id++,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
            },
          },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': String(params['name'] ?? params['taskId']) },
      );
    const created = (await send(p0, 'tools/call', { name: 'confirm_task' })).message!['result'];
    expect(created['resultType']).toBe('task');
    const taskId = created['task']?.['taskId'] ?? created['taskId'];
    let task: Record<string, any> = {};
    for (let i = 0; i < 100 && task['status'] !== 'input_required'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      task = (await send(p1, 'tasks/get', { taskId })).message!['result'];
    }
    expect(task['status']).toBe('input_required');
    const [key] = Object.keys(task['inputRequests']);
    const update = await send(p2, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { ok: true } } } });
    expect(update.message!['error']).toBeUndefined();
    for (let i = 0; i < 100 && task['status'] !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      task = (await send(p1, 'tasks/get', { taskId })).message!['result'];
    }
    expect(task['result']['content'][0]['text']).toBe('confirmed');
  });
});

/** What both SDKs' clients answer: the same as `handlers` above. */
const elicited = (params: { mode?: string }) => (params.mode === 'url' ? { action: 'accept' as const } : { action: 'accept' as const, content: { name: 'Ada', ok: true } });
const sampled = () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'hi' }, model: 'test' });
const rooted = () => ({ roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] });
const capabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

interface SdkClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }, schema?: undefined, options?: { onprogress?: (p: { progress: number }) => void; signal?: AbortSignal; timeout?: number }): Promise<unknown>;
  close(): Promise<void>;
}

async function sdkRounds(client: SdkClient): Promise<void> {
  for (let i = 0; i < 10; i++) expect(text(await client.callTool({ name: 'add', arguments: { a: i, b: 2 } }))).toBe(String(i + 2));
  expect(text(await client.callTool({ name: 'ask_name', arguments: {} }, undefined, { timeout: 8000 }))).toBe('Hello, Ada');
  expect(text(await client.callTool({ name: 'ask_link', arguments: {} }, undefined, { timeout: 8000 }))).toBe('link: accept');
  expect(text(await client.callTool({ name: 'ask_model', arguments: {} }, undefined, { timeout: 8000 }))).toBe('model: hi');
  expect(text(await client.callTool({ name: 'count_roots', arguments: {} }, undefined, { timeout: 8000 }))).toBe('roots: file:///a,file:///b');
}

describe('the official SDK clients, three processes without affinity', () => {
  it('SDK 1.x (2025-11-25): tools, elicitation (form and URL), sampling, roots, progress and cancel', async () => {
    const client = new Sdk1Client({ name: 'scale-sdk1', version: '1.0.0' }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, (request) => elicited(request.params as { mode?: string }));
    client.setRequestHandler(CreateMessageRequestSchema, sampled);
    client.setRequestHandler(ListRootsRequestSchema, rooted);
    await client.connect(new Sdk1Http(new URL(proxy.url)));
    try {
      await sdkRounds(client as unknown as SdkClient);
      const seen: number[] = [];
      expect(text(await client.callTool({ name: 'count_up', arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) }))).toBe('counted to 10');
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(text(await client.callTool({ name: 'cut_stream', arguments: {} }, undefined, { timeout: 8000 }))).toBe('arrived on the resumed stream');
      const before = aborted();
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 300));
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      const deadline = Date.now() + 5000;
      while (aborted() === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(aborted()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('SDK 1.x (2025-11-25): tasks that ask for input, and a task cancelled, through other processes', async () => {
    const client = new Sdk1Client({ name: 'scale-sdk1-tasks', version: '1.0.0' }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, (request) => elicited(request.params as { mode?: string }));
    await client.connect(new Sdk1Http(new URL(proxy.url)));
    try {
      for (let run = 0; run < 3; run++) {
        let result: unknown;
        for await (const message of client.experimental.tasks.callToolStream({ name: 'confirm_task', arguments: {} }, CallToolResultSchema, { task: { ttl: 60_000 }, timeout: 8000 })) {
          if (message.type === 'result') result = message.result;
          if (message.type === 'error') throw message.error;
        }
        expect(text(result)).toBe('confirmed');
      }
      const stream = client.experimental.tasks.callToolStream({ name: 'count_up', arguments: {} }, CallToolResultSchema, { task: {} });
      const first = await stream.next();
      if (first.done === true || first.value.type !== 'taskCreated') throw new Error('expected taskCreated first');
      expect((await client.experimental.tasks.cancelTask(first.value.task.taskId)).status).toBe('cancelled');
      await stream.return(undefined);
      expect((await client.experimental.tasks.getTask(first.value.task.taskId)).status).toBe('cancelled');
    } finally {
      await client.close();
    }
  });

  it('SDK 2.x (2026-07-28): tools, and elicitation, sampling and roots rounds whose retries land elsewhere', async () => {
    const client = new Sdk2Client({ name: 'scale-sdk2', version: '2.0.0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', (request) => elicited(request.params as { mode?: string }));
    client.setRequestHandler('sampling/createMessage', sampled);
    client.setRequestHandler('roots/list', rooted);
    await client.connect(new Sdk2Http(new URL(proxy.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await sdkRounds(client as unknown as SdkClient);
    } finally {
      await client.close();
    }
  });
});
