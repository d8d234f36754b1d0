/**
 * The message bus without Redis (fast tier): two servers in this process share sessions, tasks and
 * an in-memory bus, behind the round-robin proxy (cluster.ts), so every request of a session lands
 * on the other server. A task's question (2025-11-25, through its mailbox and tasks/result) and
 * the client's answer (a response landing where the question was not asked) still meet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, startToolTask } from '../../src/runtime/client/index.js';
import { InMemorySessionStore, InMemoryTaskStore, type HttpListener, type MessageBus } from '../../src/runtime/index.js';
import { taskServer } from '../tasks/task-server.js';
import { roundRobinProxy, type Proxy } from './cluster.js';

/** One bus for every server of this process: what is published reaches all of them, a turn later. */
class LocalBus implements MessageBus {
  readonly published: string[] = [];
  private readonly listeners: ((envelope: string) => void)[] = [];
  private readonly mail = new Map<string, string[]>();
  publish(envelope: string): Promise<void> {
    this.published.push(envelope);
    for (const listener of this.listeners) setImmediate(() => listener(envelope));
    return Promise.resolve();
  }
  subscribe(receive: (envelope: string) => void): Promise<void> {
    this.listeners.push(receive);
    return Promise.resolve();
  }
  post(taskId: string, text: string): Promise<void> {
    this.mail.set(taskId, [...(this.mail.get(taskId) ?? []), text]);
    return Promise.resolve();
  }
  take(taskId: string): Promise<string[]> {
    const taken = this.mail.get(taskId) ?? [];
    this.mail.delete(taskId);
    return Promise.resolve(taken);
  }
}

class BusSessionStore extends InMemorySessionStore {
  readonly bus: MessageBus;
  constructor(bus: MessageBus) {
    super();
    this.bus = bus;
  }
}

class SharedTaskStore extends InMemoryTaskStore {
  readonly shared = true;
}

const bus = new LocalBus();
const listeners: HttpListener[] = [];
let proxy: Proxy;
// Few sessions per server: a server that kept the sessions ended on the other would refuse new ones.
const MAX_SESSIONS = 3;

beforeAll(async () => {
  const sessionStore = new BusSessionStore(bus);
  const taskStore = new SharedTaskStore();
  for (let i = 0; i < 2; i++) listeners.push(await taskServer().server.listenHttp({ port: 0, host: '127.0.0.1', sessionStore, taskStore, maxSessions: MAX_SESSIONS }));
  proxy = await roundRobinProxy(listeners.map((listener) => new URL(listener.url)));
});

afterAll(async () => {
  await proxy?.close();
  for (const listener of listeners) await listener.close();
});

describe('two servers sharing an in-memory bus, no affinity', () => {
  it('2025-11-25: a task asks through its mailbox, the answer lands on the other server and reaches the task', async () => {
    const asked: string[] = [];
    const session = await openSession({
      url: proxy.url,
      protocolVersions: ['2025-11-25'],
      handlers: { elicitation: (params) => (asked.push(params.message), { action: 'accept', content: { ok: true } }) },
    });
    try {
      for (let run = 0; run < 2; run++) {
        const task = await startToolTask(session, { name: 'approve' }, {}, { pollIntervalMs: 20, timeoutMs: 5000 });
        expect(await task.result({ timeoutMs: 5000 })).toMatchObject({ content: [{ text: 'approved' }] });
      }
    } finally {
      await session.close();
    }
    expect(asked).toEqual(['Approve?', 'Approve?']);
    const kinds = bus.published.map((envelope) => (JSON.parse(envelope) as { k: string }).k);
    // Each answer landed on the server that did not ask (msg); the questions went through a mailbox.
    expect(kinds.filter((k) => k === 'msg').length).toBeGreaterThanOrEqual(1);
    expect(kinds).toContain('task-mail');
  });

  it('2025-11-25: a session deleted on one server ends on the other too (it no longer counts against maxSessions)', async () => {
    const ends = (): number => bus.published.filter((envelope) => (JSON.parse(envelope) as { k: string }).k === 'end').length;
    const endsBefore = ends();
    for (let i = 0; i < MAX_SESSIONS * 3; i++) {
      const session = await openSession({ url: proxy.url, protocolVersions: ['2025-11-25'] });
      // A request on each server: both hold the session, then the DELETE lands on one of them.
      await session.request('ping', {});
      await session.request('ping', {});
      await session.close();
      await new Promise((resolve) => setImmediate(resolve)); // the bus delivers a turn later
    }
    expect(ends() - endsBefore).toBe(MAX_SESSIONS * 3);
  });
});
