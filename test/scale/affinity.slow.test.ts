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
