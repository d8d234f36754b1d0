/**
 * A session ended while its calls run (issue 38 item 3): a client DELETEs its 2025-11-25 session
 * during a call, as mcp-use's client and the Vercel AI SDK's do. Before the fix the call's answer
 * was written to the stream DELETE had ended, and node:http's ERR_STREAM_WRITE_AFTER_END, an
 * unhandled 'error' event, ended the process. Now the call's signal aborts, nothing is written to
 * an ended stream, and another client's session keeps getting answers. Driven with plain fetch and
 * with the official SDK client.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type EventStore, type HttpListener, type McpServer } from '../../src/runtime/index.js';
import { InMemoryEventStore } from '../../src/runtime/transports/http/event-store.js';
import { holdLog, sessionEndDefinition, sessionEndHandlers, type HoldLog } from './session-end-server.js';
import { adapter, listen } from '../transports/adapters.js';
import { testHook } from '../../src/runtime/transports/http/test-hook.js';

const BOTH = 'application/json, text/event-stream';
const log: HoldLog = holdLog();
const serverLog: string[] = [];
let server: McpServer;
let listener: HttpListener;
let url: string;

/** Errors that would have ended a server process: node:http's 'error' with no listener, a rejection nobody handles. */
const fatal: unknown[] = [];
const onFatal = (error: unknown): void => void fatal.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  server = createServer(sessionEndDefinition(), sessionEndHandlers(log), { logger: (line) => serverLog.push(line), tasks: {} });
  listener = await listen(server);
  url = listener.url;
});
afterAll(async () => {
  await listener?.close();
  process.off('uncaughtException', onFatal);
  process.off('unhandledRejection', onFatal);
});
afterEach(async () => {
  // A write after end surfaces a turn or two after it happens: let it, then check nothing did.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(fatal.splice(0)).toEqual([]);
});

function post(body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: BOTH };
  if (session !== undefined) headers['mcp-session-id'] = session;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function openSession(): Promise<string> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'session-end', version: '1' } };
  const response = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params });
  const session = response.headers.get('mcp-session-id')!;
  await response.text();
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
  return session;
}

function callTool(session: string, name: string, args: object, id = 1, extra: object = {}): Promise<Response> {
  return post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra } }, session);
}

async function endSession(session: string): Promise<number> {
  return (await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status;
}

/** A bystander's call: answered in full while the other session ends. */
async function echo(session: string, text: string): Promise<string> {
  const body = await (await callTool(session, 'echo', { text }, 7)).text();
  return JSON.parse(body.startsWith('{') ? body : body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1))['result']['content'][0]['text'];
}

describe('DELETE during a call (2025-11-25)', () => {
  it('plain fetch, JSON answer pending: the call is aborted, no answer is written, the server serves on', async () => {
    const bystander = await openSession();
    const session = await openSession();
    const answer = callTool(session, 'hold', { tag: 'fetch-json' }).then((r) => r.text());
    await log.whenStarted('fetch-json');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await endSession(session)).toBe(204);
    // The answer ends without a result: the call was cancelled with its session.
    expect(await answer).not.toContain('"result"');
    expect(log.aborted).toContain('fetch-json');
    expect(log.finished).not.toContain('fetch-json');
    expect(await echo(bystander, 'still here')).toBe('still here');
    // The ended session is gone; a new one works.
    expect((await callTool(session, 'echo', { text: 'x' })).status).toBe(404);
    expect(await echo(await openSession(), 'new session')).toBe('new session');
  });

  it('plain fetch, SSE answer open (progress sent): the stream ends, the call is aborted', async () => {
    const bystander = await openSession();
    const session = await openSession();
    const response = await callTool(session, 'hold_progress', { tag: 'fetch-sse' }, 2, { _meta: { progressToken: 'p' } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const body = response.text();
    await log.whenStarted('fetch-sse');
    expect(await endSession(session)).toBe(204);
    const text = await body;
    expect(text).toContain('notifications/progress');
    expect(text).not.toContain('"result"');
    expect(log.aborted).toContain('fetch-sse');
    expect(await echo(bystander, 'after sse')).toBe('after sse');
  });

  it('a task running in the session is cancelled with it', async () => {
    const session = await openSession();
    const created = await (await callTool(session, 'hold_task', { tag: 'task' }, 3, { task: { ttl: 60_000 } })).text();
    expect(JSON.parse(created)['result']['task']['status']).toBe('working');
    await log.whenStarted('task');
    expect(await endSession(session)).toBe(204);
    expect(log.aborted).toContain('task');
  });

  it('the standalone GET stream ends, and later notifications are not written to it', async () => {
    const session = await openSession();
    const get = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    expect(get.status).toBe(200);
    const stream = get.text();
    const answer = callTool(session, 'hold', { tag: 'get-stream' }).then((r) => r.text());
    await log.whenStarted('get-stream');
    expect(await endSession(session)).toBe(204);
    await stream;
    server.notify.toolsChanged();
    await answer;
    expect(log.aborted).toContain('get-stream');
  });
});

describe('DELETE during a call, with the official SDK client', () => {
  it('terminateSession while callTool runs: the call fails, its handler aborts, a bystander client is answered', async () => {
    const connect = async (name: string) => {
      const transport = new StreamableHTTPClientTransport(new URL(url));
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(transport);
      return { client, transport };
    };
    const bystander = await connect('bystander');
    const leaving = await connect('leaving');
    const call = leaving.client.callTool({ name: 'hold', arguments: { tag: 'sdk' } }, CallToolResultSchema, { timeout: 10_000 });
    const settled = call.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await log.whenStarted('sdk');
    const bystanderCalls = Array.from({ length: 5 }, (_, i) => bystander.client.callTool({ name: 'echo', arguments: { text: `b${i}` } }));
    await leaving.transport.terminateSession();
    await leaving.client.close();
    expect(await settled).not.toBe('answered');
    expect(log.aborted).toContain('sdk');
    const answers = await Promise.all(bystanderCalls);
    expect(answers.map((a) => (a.content as { text: string }[])[0]!.text)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
    expect((await bystander.client.callTool({ name: 'echo', arguments: { text: 'after' } })).content).toEqual([{ type: 'text', text: 'after' }]);
    await bystander.client.close();
  });
});

describe('the last-resort guard', () => {
  it("an 'error' on a session's response (node:http's write after end) ends that session only, logged", async () => {
    // node:http only: the Web adapter never emits 'error' (a write after its end is refused silently).
    if (adapter() === 'web') return;
    const tables: { sessions: Map<string, { streams: Map<string, { res?: { emit(event: 'error', error: Error): boolean } }> }> }[] = [];
    testHook.watch = (table) => tables.push(table as (typeof tables)[number]);
    const lines: string[] = [];
    const own = createServer(sessionEndDefinition(), sessionEndHandlers(holdLog()), { logger: (line) => lines.push(line) });
    const guarded = await listen(own);
    testHook.watch = undefined;
    const previous = url;
    url = guarded.url;
    try {
      const bystander = await openSession();
      const session = await openSession();
      const response = await callTool(session, 'hold_progress', { tag: 'error-event', ms: 2000 }, 5, { _meta: { progressToken: 'e' } });
      const body = response.text();
      const stream = [...tables[0]!.sessions.get(session)!.streams.values()].find((s) => s.res !== undefined)!;
      stream.res!.emit('error', Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' }));
      await body;
      expect(lines.some((line) => line.startsWith(`Session ${session} ended after an error: Error: write after end`))).toBe(true);
      expect((await callTool(session, 'echo', { text: 'x' })).status).toBe(404);
      expect(await echo(bystander, 'unharmed')).toBe('unharmed');
    } finally {
      url = previous;
      await guarded.close();
    }
  });

  it("a failure on one session's stream ends that session, logged; the process and other sessions carry on", async () => {
    // An event store that fails when a stream ends: the failure happens in the stream's own write
    // chain, where nothing else would catch it.
    class FailingEnd extends InMemoryEventStore implements EventStore {
      endStream(): Promise<void> {
        throw new Error('the store broke while ending a stream');
      }
    }
    const lines: string[] = [];
    const own = createServer(sessionEndDefinition(), sessionEndHandlers(holdLog()), { logger: (line) => lines.push(line) });
    const guarded = await listen(own, { eventStore: new FailingEnd() });
    const previous = url;
    url = guarded.url;
    try {
      const bystander = await openSession();
      const session = await openSession();
      const response = await callTool(session, 'hold_progress', { tag: 'guard', ms: 10 }, 4, { _meta: { progressToken: 'g' } });
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines.some((line) => line.startsWith(`Session ${session} ended after an error: Error: the store broke`))).toBe(true);
      expect((await callTool(session, 'echo', { text: 'x' })).status).toBe(404);
      expect(await echo(bystander, 'unharmed')).toBe('unharmed');
    } finally {
      url = previous;
      await guarded.close();
    }
  });
});
