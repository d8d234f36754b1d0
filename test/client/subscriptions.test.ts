/**
 * `session.listen` (subscriptions/listen) when the server ends the subscription, which our
 * generated server never does on its own (its subscriptions end when the client cancels them:
 * cancellation.test.ts): a graceful end (a result) ends the iteration, a teardown
 * (`notifications/cancelled` naming the listen request) makes it throw. A stateful session is told
 * clearly that it cannot listen.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSession, type ClientSession } from '../../src/runtime/client/index.js';
import { repoRoot } from './support.js';

const endingListener = join(repoRoot, 'test/client/fixtures/ending-listener.mjs');

async function withSession(run: (session: ClientSession) => Promise<void>): Promise<void> {
  const session = await openSession({ command: process.execPath, args: [endingListener], stderr: 'ignore', shutdownGraceMs: 500 });
  try {
    await run(session);
  } finally {
    await session.close();
  }
}

describe('a subscription the server ends', () => {
  it('ends the iteration on the server’s graceful end (a result)', async () => {
    await withSession(async (session) => {
      const subscription = session.listen({ toolsListChanged: true });
      const methods: string[] = [];
      for await (const notification of subscription) methods.push(notification.method);
      expect(methods).toEqual(['notifications/tools/list_changed']);
      expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
      expect(await subscription.ended).toBe('completed');
    });
  });

  it('throws from the iteration when the server tears it down (notifications/cancelled)', async () => {
    await withSession(async (session) => {
      const subscription = session.listen({ promptsListChanged: true });
      const methods: string[] = [];
      const reading = (async () => {
        for await (const notification of subscription) methods.push(notification.method);
      })();
      await expect(reading).rejects.toThrow('The server ended the subscription: shutting down');
      await expect(subscription.ended).rejects.toThrow('shutting down');
      expect(methods).toEqual(['notifications/tools/list_changed']);
    });
  });

  it('keeps several subscriptions apart by their id', async () => {
    await withSession(async (session) => {
      const stays = session.listen({ resourcesListChanged: true });
      const ends = session.listen({ toolsListChanged: true });
      const endedMethods: string[] = [];
      for await (const notification of ends) endedMethods.push(notification.method);
      expect(endedMethods).toEqual(['notifications/tools/list_changed']);
      const iterator = stays[Symbol.asyncIterator]();
      expect((await iterator.next()).value?.method).toBe('notifications/tools/list_changed');
      await iterator.return?.();
      expect(await stays.ended).toBe('cancelled');
    });
  });
});

it('tells a stateful session that subscriptions/listen needs 2026-07-28', async () => {
  const { createServer } = await import('../../examples/weather/server/generated/server.js');
  const { handlers } = await import('../../examples/weather/server/handlers/index.js');
  const listener = await createServer(handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
  const session = await openSession({ url: listener.url, protocolVersions: ['2025-11-25'] });
  try {
    const subscription = session.listen({ toolsListChanged: true });
    await expect(subscription.ended).rejects.toThrow('subscriptions/listen needs protocol revision 2026-07-28; this session speaks 2025-11-25');
    await expect(subscription.acknowledged).rejects.toThrow('needs protocol revision 2026-07-28');
  } finally {
    await session.close();
    await listener.close();
  }
});
