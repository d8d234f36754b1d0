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
