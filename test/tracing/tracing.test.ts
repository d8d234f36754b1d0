/**
 * Tracing (issue 30 item 4, docs/tracing.md) with the OpenTelemetry SDK's in-memory exporters: one
 * trace runs from the app through our client and our server into a nested elicitation, in both
 * eras; the spans carry the semantic conventions' attributes; task runs, output checks and the
 * metrics are recorded; and trace context is read from `_meta` and from HTTP headers.
 */
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { openSession, startToolTask } from '../../src/runtime/client/index.js';
import { inputDefinition, inputHandlers } from '../runtime/fixtures/input-server.js';
import { taskDefinition, taskHandlers } from '../tasks/task-server.js';
import { finished, installSdk, metricPoints, spans } from './otel.js';

const SERVER = 1;
const CLIENT = 2;
const ERROR = 2;

installSdk();
const app = trace.getTracer('the-app');

let input: HttpListener;
let tasks: HttpListener;
const taskLevers = taskHandlers();
beforeAll(async () => {
  input = await createServer(inputDefinition(), inputHandlers, { logger: () => {}, tracing: true }).listenHttp({ port: 0, host: '127.0.0.1' });
  tasks = await createServer(taskDefinition(), taskLevers.handlers, { logger: () => {}, tracing: true }).listenHttp({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await input?.close();
  await tasks?.close();
});
beforeEach(() => spans.reset());

/** Runs `body` inside an app span, as an app's own instrumentation would; returns that span's trace and span ids. */
async function inAppSpan(body: () => Promise<void>): Promise<{ traceId: string; spanId: string }> {
  return app.startActiveSpan('app work', async (span) => {
    try {
      await body();
    } finally {
      span.end();
    }
    return { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
  });
}

const named = (name: string, kind?: number) => {
  const found = finished().filter((s) => s.name === name && (kind === undefined || s.kind === kind));
  expect(found.map((s) => s.name), `spans named ${name}: ${finished().map((s) => s.name).join(', ')}`).not.toEqual([]);
  return found;
};

describe('one trace: app → our client → our server → a nested elicitation', () => {
  it('2025-11-25: the elicitation the handler sends is served by the client inside the same trace', async () => {
    const root = await inAppSpan(async () => {
      const session = await openSession({ url: input.url, protocolVersions: ['2025-11-25'], tracing: true, handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) } });
      const result = await session.request('tools/call', { name: 'form_name', arguments: {} });
      expect(result['content']).toEqual([{ type: 'text', text: 'form: accept Ada' }]);
      await session.close();
    });
    const all = finished();
    expect(new Set(all.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
    const [clientCall] = named('tools/call form_name', CLIENT);
    const [serverCall] = named('tools/call form_name', SERVER);
    const [handler] = named('handler form_name');
    const [asked] = named('elicitation/create', CLIENT);
    const [answered] = named('elicitation/create', SERVER);
    const [check] = named('validate_output form_name');
    expect(clientCall!.parentId).toBe(root.spanId);
    expect(serverCall!.parentId).toBe(clientCall!.spanId);
    expect(handler!.parentId).toBe(serverCall!.spanId);
    expect(asked!.parentId).toBe(handler!.spanId);
    expect(answered!.parentId).toBe(asked!.spanId);
    expect(check!.parentId).toBe(serverCall!.spanId);
    expect(serverCall!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'form_name',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'mcp_gen.stateless': false,
      'mcp_gen.outcome': 'ok',
    });
    expect(serverCall!.attributes['mcp.session.id']).toEqual(expect.any(String));
    expect(serverCall!.attributes['jsonrpc.request.id']).toEqual(expect.any(String));
    expect(all.every((s) => s.ended)).toBe(true);
  });

  it('2026-07-28: both rounds of the input-required call and the client’s answer join the trace', async () => {
    const root = await inAppSpan(async () => {
      const session = await openSession({ url: input.url, protocolVersions: ['2026-07-28'], tracing: true, handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Lin' } }) } });
      const result = await session.request('tools/call', { name: 'form_name', arguments: {} });
      expect(result['content']).toEqual([{ type: 'text', text: 'form: accept Lin' }]);
      await session.close();
    });
    const all = finished();
    expect(new Set(all.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
    // Each round is one request on the wire: a CLIENT span in the app's span, its SERVER span inside.
    const sent = named('tools/call form_name', CLIENT);
    const rounds = named('tools/call form_name', SERVER);
    expect(sent).toHaveLength(2);
    expect(rounds).toHaveLength(2);
    expect(sent.map((s) => s.parentId)).toEqual([root.spanId, root.spanId]);
    expect(rounds.map((s) => s.parentId).sort()).toEqual(sent.map((s) => s.spanId).sort());
    for (const round of rounds) {
      expect(round.attributes).toMatchObject({ 'mcp.protocol.version': '2026-07-28', 'mcp_gen.stateless': true });
      expect(round.attributes['mcp.session.id']).toBeUndefined();
    }
    // Round one parks its handler on the input request: its spans end with the round, marked so.
    const parked = all.filter((s) => s.attributes['mcp_gen.parked'] === true).map((s) => s.name).sort();
    expect(parked).toEqual(['elicitation/create', 'handler form_name']);
    const [answered] = named('elicitation/create', SERVER);
    const asked = all.find((s) => s.spanId === answered!.parentId);
    expect(asked).toMatchObject({ name: 'elicitation/create', kind: CLIENT, attributes: { 'mcp_gen.parked': true } });
  });
});

describe('span outcomes', () => {
  it('a JSON-RPC error and a tool error are marked, with the semantic conventions’ attributes', async () => {
    const session = await openSession({ url: input.url, protocolVersions: ['2025-11-25'], tracing: true });
    await expect(session.request('tools/call', { name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const refused = await session.request('tools/call', { name: 'form_name', arguments: {} });
    expect(refused['isError']).toBe(true);
    await session.close();
    const [unknown] = named('tools/call no_such_tool', SERVER);
    expect(unknown!.attributes).toMatchObject({ 'rpc.response.status_code': '-32602', 'error.type': '-32602', 'mcp_gen.outcome': 'error' });
    expect(unknown!.status).toBe(ERROR);
    const [unknownClient] = named('tools/call no_such_tool', CLIENT);
    expect(unknownClient!.attributes).toMatchObject({ 'rpc.response.status_code': '-32602' });
    const [toolError] = named('tools/call form_name', SERVER);
    expect(toolError!.attributes).toMatchObject({ 'error.type': 'tool_error', 'mcp_gen.outcome': 'tool_error' });
    expect(named('tools/call form_name', CLIENT)[0]!.attributes['error.type']).toBe('tool_error');
  });
});

describe('trace context from the transport', () => {
  it('a request without _meta continues the trace its HTTP traceparent header names', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', traceparent: `00-${traceId}-${parent}-01` };
    const response = await fetch(input.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-method': 'tools/list' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } },
      }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const [list] = named('tools/list', SERVER);
    expect(list).toMatchObject({ traceId, parentId: parent });
  });

  it('the Web-standard fetch handler reads the traceparent header too', async () => {
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
    const handler = createServer(inputDefinition(), inputHandlers, { logger: () => {}, tracing: true }).fetchHandler();
    const response = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', traceparent: `00-${traceId}-00f067aa0ba902b8-01` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } },
        }),
      }),
    );
    expect(response.status).toBe(200);
    await response.text();
    expect(named('tools/list', SERVER)[0]).toMatchObject({ traceId, parentId: '00f067aa0ba902b8' });
  });

  it('_meta.traceparent wins over the header; a malformed one is ignored', async () => {
    const viaMeta = '0af7651916cd43dd8448eb211c80319c';
    const body = (traceparent: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: { _meta: { traceparent, 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } },
      });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
    await (await fetch(input.url, { method: 'POST', headers, body: body(`00-${viaMeta}-b7ad6b7169203331-01`) })).text();
    await (await fetch(input.url, { method: 'POST', headers: { ...headers, traceparent: 'garbage' }, body: body('00-00000000000000000000000000000000-b7ad6b7169203331-01') })).text();
    const [fromMeta, fresh] = named('tools/list', SERVER);
    expect(fromMeta).toMatchObject({ traceId: viaMeta, parentId: 'b7ad6b7169203331' });
    expect(fresh!.parentId).toBe('');
    expect(fresh!.traceId).not.toBe('00000000000000000000000000000000');
  });
});

describe('trace context set by the caller', () => {
  it('a traceparent the call puts in _meta parents the client’s span, which the server continues', async () => {
    const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const session = await openSession({ url: input.url, protocolVersions: ['2025-11-25'], tracing: true });
    await session.request('tools/list', { _meta: { traceparent: `00-${traceId}-1122334455667788-01` } });
    await session.close();
    const [sent] = named('tools/list', CLIENT);
    const [served] = named('tools/list', SERVER);
    expect(sent).toMatchObject({ traceId, parentId: '1122334455667788' });
    expect(served).toMatchObject({ traceId, parentId: sent!.spanId });
  });
});

describe('task runs', () => {
  it('2025-11-25: the task span runs from the handler’s start to the terminal status, its handler inside it', async () => {
    const session = await openSession({ url: tasks.url, protocolVersions: ['2025-11-25'], tracing: true, handlers: { elicitation: () => ({ action: 'accept', content: { ok: true } }) } });
    const handle = await startToolTask(session, { name: 'approve' }, {});
    expect(await handle.result()).toMatchObject({ content: [{ type: 'text', text: 'approved' }] });
    await session.close();
    const [call] = named('tools/call approve', SERVER);
    const [task] = named('task approve');
    const [handler] = named('handler approve');
    const [asked] = named('elicitation/create', CLIENT);
    expect(task!.parentId).toBe(call!.spanId);
    expect(handler!.parentId).toBe(task!.spanId);
    expect(asked!.parentId).toBe(handler!.spanId);
    expect(task!.attributes).toMatchObject({ 'gen_ai.tool.name': 'approve', 'mcp.task.status': 'completed' });
    expect(task!.attributes['mcp.task.id']).toBe(handle.taskId);
    const ends = await metricPoints('mcp_gen.server.task.ends');
    expect(ends.find((p) => p.attributes['mcp.task.status'] === 'completed')?.value).toBeGreaterThanOrEqual(1);
  });

  it('a running task is counted by status while it works', async () => {
    const session = await openSession({ url: tasks.url, protocolVersions: ['2025-11-25'], tracing: true });
    const handle = await startToolTask(session, { name: 'export_report' }, { rows: 2 });
    const working = async () => (await metricPoints('mcp_gen.server.tasks')).find((p) => p.attributes['mcp.task.status'] === 'working')?.value;
    expect(await working()).toBe(1);
    taskLevers.release();
    await handle.result();
    expect(await working()).toBe(0);
    await session.close();
  });
});

describe('metrics', () => {
  it('records the duration histogram per method and tool, and the requests in flight', async () => {
    const histogram = async () =>
      (await metricPoints('mcp.server.operation.duration')).find((p) => p.attributes['mcp.method.name'] === 'tools/call' && p.attributes['gen_ai.tool.name'] === 'sample_plain');
    const before = ((await histogram())?.value as { count: number } | undefined)?.count ?? 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const asked = new Promise<void>((resolve) => (reached = resolve));
    const sampling = async () => {
      reached();
      await gate;
      return { role: 'assistant' as const, content: { type: 'text' as const, text: 'hi' }, model: 'm' };
    };
    const session = await openSession({ url: input.url, protocolVersions: ['2025-11-25'], tracing: true, handlers: { sampling } });
    const first = session.request('tools/call', { name: 'sample_plain', arguments: {} });
    // While the handler waits for the client's sampling answer, its tools/call is in flight.
    await asked;
    const inFlight = (await metricPoints('mcp_gen.server.active_requests')).find((p) => p.attributes['mcp.method.name'] === 'tools/call')?.value;
    release();
    await first;
    await session.request('tools/call', { name: 'sample_plain', arguments: {} });
    await session.close();
    const after = (await histogram())!.value as { count: number; sum: number };
    expect(after.count - before).toBe(2);
    expect(after.sum).toBeGreaterThan(0);
    expect((await histogram())!.attributes['mcp.protocol.version']).toBe('2025-11-25');
    expect(inFlight).toBe(1);
    expect((await metricPoints('mcp_gen.server.active_requests')).find((p) => p.attributes['mcp.method.name'] === 'tools/call')?.value).toBe(0);
    const client = (await metricPoints('mcp.client.operation.duration')).find((p) => p.attributes['gen_ai.tool.name'] === 'sample_plain');
    expect((client!.value as { count: number }).count).toBeGreaterThanOrEqual(2);
  });
});
