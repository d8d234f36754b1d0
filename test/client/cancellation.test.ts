/**
 * Cancellation from the generated client, against a generated server (test/fixtures/client/
 * cancel-server: a tool that runs until its request is cancelled and remembers that its handler's
 * signal aborted). At 2026-07-28 Streamable HTTP closes the request's response stream and posts
 * nothing; stdio sends `notifications/cancelled`; the stateful revisions post the notification on
 * both. A recording proxy in front of the HTTP server shows what the client posted and which
 * responses it closed. `subscriptions/listen` ends the same way when its signal aborts.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, startHttpServer, tempDir } from '../server/support.js';
import { cli, generate, importClient, repoRoot } from './support.js';

type Module = {
  connect(options: object): Promise<Client>;
  RequestTimeoutError: new (...args: never[]) => Error;
};
interface Client {
  readonly server: { protocolVersion: string; serverInfo: Record<string, unknown> | undefined };
  readonly tools: {
    waitForCancel(input: { tag: string }, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<unknown>;
    cancelledTags(): Promise<{ tags: string[]; started: string[] }>;
    announceToolsChanged(): Promise<unknown>;
  };
  readonly session: {
    listen(
      notifications: object,
      options?: { signal?: AbortSignal },
    ): AsyncIterable<{ method: string; params: Record<string, unknown> }> & { acknowledged: Promise<object>; ended: Promise<string> };
  };
  close(): Promise<void>;
}

const fixture = join(repoRoot, 'test/fixtures/client/cancel-server');
const work = tempDir('client-cancel');
const running: ChildProcess[] = [];
let main: string;
let serverUrl: URL;
let generated: Module;
/** The same client generated with --browser: its HTTP runs on fetch (Node's here). */
let onFetch: Module;

/** One HTTP exchange the proxy forwarded. */
interface Exchange {
  verb: string;
  method: string;
  /** `Last-Event-ID`: the client resumed a stream. */
  resumedAfter: string | undefined;
  /** The client closed the connection before the response was complete. */
  closedByClient: boolean;
}

/** Forwards to the server, recording each exchange; a client disconnect is passed on upstream. */
function startProxy(target: URL): Promise<{ url: string; exchanges: Exchange[]; server: Server }> {
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    const exchange: Exchange = {
      verb: req.method ?? '',
      method: String(req.headers['mcp-method'] ?? ''),
      resumedAfter: req.headers['last-event-id'] as string | undefined,
      closedByClient: false,
    };
    exchanges.push(exchange);
    const upstream = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
    res.on('close', () => {
      if (res.writableFinished) return;
      exchange.closedByClient = true;
      upstream.destroy();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${address.port}${target.pathname}`, exchanges, server });
    });
  });
}

/** Long enough for any wait on a loaded machine; the tests get more (a slow poll fails with its message). */
const DEADLINE_MS = 60_000;
const TEST_TIMEOUT_MS = 180_000;

/** Polls until `check` holds (the server notices a cancellation asynchronously); `state` says what was seen instead. */
async function eventually(check: () => Promise<boolean>, what: string, state: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${state()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls the server's record until `done` holds for it. */
async function untilSeen(client: Client, done: (seen: { tags: string[]; started: string[] }) => boolean, what: string): Promise<void> {
  let seen = { tags: [] as string[], started: [] as string[] };
  await eventually(
    async () => done((seen = await client.tools.cancelledTags())),
    what,
    () => `; handlers started: ${seen.started.join(', ') || 'none'}; saw abort: ${seen.tags.join(', ') || 'none'}`,
  );
}

async function expectHandlersSawAbort(client: Client, tags: string[]): Promise<void> {
  await untilSeen(client, (seen) => tags.every((tag) => seen.tags.includes(tag)), `the handlers of ${tags.join(', ')} to see their signal abort`);
}

/**
 * The timed-out call's timeoutMs: its request must reach the handler before it passes (a request
 * cancelled sooner never starts one, rightly), and that cannot be awaited first. It took at most
 * about 60 ms in loaded runs (three copies of this file beside the runtime tests); 150 ms left too little.
 */
const CALL_TIMEOUT_MS = 2_000;

/**
 * Starts two calls and gives up on both: one through its signal, one through timeoutMs. The signal
 * aborts only once its handler runs: the server may still be loading the tool's validators (the
 * first call on a server does), and a call cancelled then rightly never reaches its handler.
 */
async function abortAndTimeOut(client: Client, prefix: string, module: Module = generated): Promise<string[]> {
  const [signalTag, timeoutTag] = [`${prefix}-signal`, `${prefix}-timeout`];
  const controller = new AbortController();
  const aborted = client.tools.waitForCancel({ tag: signalTag }, { signal: controller.signal });
  aborted.catch(() => {}); // Checked below; not left unhandled while the start is awaited.
  await untilSeen(client, (seen) => seen.started.includes(signalTag), `the handler of ${signalTag} to start`);
  // The validators are loaded now: this call runs its handler as soon as it arrives.
  const timedOut = client.tools.waitForCancel({ tag: timeoutTag }, { timeoutMs: CALL_TIMEOUT_MS });
  timedOut.catch(() => {});
  controller.abort(new Error('the user gave up'));
  await expect(aborted).rejects.toThrow('the user gave up');
  await expect(timedOut).rejects.toBeInstanceOf(module.RequestTimeoutError);
  return [signalTag, timeoutTag];
}

function stdio(log: string[], protocolVersions?: string[]): Promise<Client> {
  return generated.connect({
    command: process.execPath,
    args: [main],
    stderr: (text: string) => log.push(text),
    shutdownGraceMs: 500,
    ...(protocolVersions ? { protocolVersions } : {}),
  });
}

/** 2026-07-28 over Streamable HTTP: cancelling closes the exchange, nothing is posted. */
async function httpStateless(module: Module, prefix: string): Promise<void> {
  const proxy = await startProxy(serverUrl);
  try {
    const client = await module.connect({ url: proxy.url });
    expect(client.server.protocolVersion).toBe('2026-07-28');
    const tags = await abortAndTimeOut(client, prefix, module);
    await expectHandlersSawAbort(client, tags);
    const calls = proxy.exchanges.filter((e) => e.method === 'tools/call');
    // The two waits were closed by the client; the cancelled_tags polls completed.
    expect(calls.filter((e) => e.closedByClient)).toHaveLength(2);
    expect(proxy.exchanges.map((e) => e.method)).not.toContain('notifications/cancelled');
    await client.close();
  } finally {
    proxy.server.close();
  }
}

/** 2025-11-25 over Streamable HTTP: notifications/cancelled, and no resumption of the cancelled streams. */
async function httpStateful(module: Module, prefix: string): Promise<void> {
  const proxy = await startProxy(serverUrl);
  try {
    const client = await module.connect({ url: proxy.url, protocolVersions: ['2025-11-25'] });
    expect(client.server.protocolVersion).toBe('2025-11-25');
    const tags = await abortAndTimeOut(client, prefix, module);
    await expectHandlersSawAbort(client, tags);
    expect(proxy.exchanges.filter((e) => e.method === 'notifications/cancelled')).toHaveLength(2);
    // The server ends a cancelled request's stream without an answer; resuming it would only
    // fetch nothing, again and again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(proxy.exchanges.filter((e) => e.resumedAfter !== undefined)).toEqual([]);
    await client.close();
  } finally {
    proxy.server.close();
  }
}

beforeAll(async () => {
  const server = await cli(['server', join(fixture, 'manifest.yaml'), '-o', join(work, 'server'), '--no-version-banner']);
  expect(server.code, server.err).toBe(0);
  cpSync(join(fixture, 'handlers'), join(work, 'server', 'handlers'), { recursive: true });
  main = build(join(work, 'server'), join(work, 'build'));
  serverUrl = await startHttpServer(main, running);
  const { dir, run } = await generate([join(fixture, 'manifest.yaml')]);
  expect(run.code, run.err).toBe(0);
  generated = await importClient<Module>(dir);
  const browser = await generate([join(fixture, 'manifest.yaml'), '--browser']);
  expect(browser.run.code, browser.run.err).toBe(0);
  onFetch = await importClient<Module>(browser.dir);
}, 300_000);

afterAll(() => {
  for (const child of running) child.kill();
  rmSync(work, { recursive: true, force: true });
});

describe('cancellation at 2026-07-28', () => {
  it('over Streamable HTTP closes the request’s response stream, posts no notifications/cancelled, and the handler’s signal aborts', () => httpStateless(generated, 'http-2026'), TEST_TIMEOUT_MS);
  it('the same on the fetch wire (a --browser client)', () => httpStateless(onFetch, 'fetch-2026'), TEST_TIMEOUT_MS);

  it('over stdio sends notifications/cancelled and the handler’s signal aborts', async () => {
    const log: string[] = [];
    const client = await stdio(log);
    expect(client.server.protocolVersion).toBe('2026-07-28');
    const tags = await abortAndTimeOut(client, 'stdio-2026');
    await expectHandlersSawAbort(client, tags);
    // stderr is a pipe of its own: its line may come after the answers on stdout.
    await eventually(async () => log.join('').includes('saw abort stdio-2026-signal'), 'the server’s stderr line', () => `; stderr: ${log.join('')}`);
    await client.close();
  }, TEST_TIMEOUT_MS);
});

describe('cancellation at 2025-11-25 (stateful)', () => {
  it('over Streamable HTTP posts notifications/cancelled, the handler’s signal aborts, and the cancelled streams are not resumed', () => httpStateful(generated, 'http-2025'), TEST_TIMEOUT_MS);
  it('the same on the fetch wire (a --browser client)', () => httpStateful(onFetch, 'fetch-2025'), TEST_TIMEOUT_MS);

  it('over stdio sends notifications/cancelled and the handler’s signal aborts', async () => {
    const client = await stdio([], ['2025-11-25']);
    expect(client.server.protocolVersion).toBe('2025-11-25');
    await expectHandlersSawAbort(client, await abortAndTimeOut(client, 'stdio-2025'));
    await client.close();
  }, TEST_TIMEOUT_MS);
});

describe('subscriptions/listen', () => {
  /** Listens for tool-list changes, receives one, then aborts; what the app saw, and what came after. */
  async function listenThenAbort(client: Client, strays: unknown[]): Promise<{ received: string[]; ended: string }> {
    const controller = new AbortController();
    const subscription = client.session.listen({ toolsListChanged: true }, { signal: controller.signal });
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
    const received: string[] = [];
    const reading = (async () => {
      for await (const notification of subscription) {
        received.push(notification.method);
        controller.abort();
      }
    })();
    await client.tools.announceToolsChanged();
    await reading;
    const ended = await subscription.ended;
    // A server still serving the subscription would send this change on it: the client no longer
    // knows the subscription, so it would reach onNotification.
    await client.tools.announceToolsChanged();
    expect(strays).toEqual([]);
    return { received, ended };
  }

  it('over Streamable HTTP ends when its signal aborts: the stream is closed and the iteration ends', async () => {
    const proxy = await startProxy(serverUrl);
    const strays: unknown[] = [];
    try {
      const client = await generated.connect({ url: proxy.url, onNotification: (method: string, params: unknown) => strays.push({ method, params }) });
      expect(await listenThenAbort(client, strays)).toEqual({ received: ['notifications/tools/list_changed'], ended: 'cancelled' });
      const listens = proxy.exchanges.filter((e) => e.method === 'subscriptions/listen');
      expect(listens).toHaveLength(1);
      await eventually(async () => listens[0]!.closedByClient, 'the listen stream to be closed');
      expect(proxy.exchanges.map((e) => e.method)).not.toContain('notifications/cancelled');
      await client.close();
    } finally {
      proxy.server.close();
    }
  }, TEST_TIMEOUT_MS);

  it('over stdio ends when its signal aborts: notifications/cancelled stops the server’s subscription', async () => {
    const strays: unknown[] = [];
    const client = await generated.connect({
      command: process.execPath,
      args: [main],
      stderr: 'ignore',
      shutdownGraceMs: 500,
      onNotification: (method: string, params: unknown) => strays.push({ method, params }),
    });
    expect(await listenThenAbort(client, strays)).toEqual({ received: ['notifications/tools/list_changed'], ended: 'cancelled' });
    await client.close();
  }, TEST_TIMEOUT_MS);

  it('leaving the loop cancels it too', async () => {
    const strays: unknown[] = [];
    const client = await generated.connect({
      command: process.execPath,
      args: [main],
      stderr: 'ignore',
      shutdownGraceMs: 500,
      onNotification: (method: string, params: unknown) => strays.push({ method, params }),
    });
    const subscription = client.session.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const reading = (async () => {
      for await (const notification of subscription) return notification.method;
      return undefined;
    })();
    await client.tools.announceToolsChanged();
    expect(await reading).toBe('notifications/tools/list_changed');
    expect(await subscription.ended).toBe('cancelled');
    await client.tools.announceToolsChanged();
    expect(strays).toEqual([]);
    await client.close();
  }, TEST_TIMEOUT_MS);
});
