/**
 * At 2026-07-28 a task belongs to the verified token's subject: with manifest `auth`, another
 * subject holding the task id gets "not found" from tasks/get and tasks/cancel, and
 * the task runs on untouched; its own subject reads it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProtectedServer, type RunningProtectedServer } from './support/protected-server.js';

let server: RunningProtectedServer;
let userToken: string;

beforeAll(async () => {
  server = await startProtectedServer();
  userToken = await server.as.tokenByAuthorizationCode(server.url, 'weather:read');
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'task-owner-test', version: '1' },
};

async function post(token: string, method: string, params: Record<string, unknown>, name?: string): Promise<Record<string, any>> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } }),
  });
  const text = await response.text();
  // An answer may come as one SSE event.
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
  return JSON.parse(json) as Record<string, any>;
}

it("another subject cannot read or cancel a subject's task", async () => {
  const started = await post(userToken, 'tools/call', { name: 'report', arguments: {} }, 'report');
  const taskId = started['result']?.['taskId'] as string;
  expect(taskId, JSON.stringify(started)).toBeTypeOf('string');

  for (const method of ['tasks/get', 'tasks/cancel']) {
    const foreign = await post(server.readToken, method, { taskId }, taskId);
    expect(foreign['error']?.['code'], `${method}: ${JSON.stringify(foreign)}`).toBe(-32602);
    expect(JSON.stringify(foreign)).not.toContain('report for');
  }
  const own = await post(userToken, 'tasks/get', { taskId }, taskId);
  expect(own['result']?.['status'], JSON.stringify(own)).toMatch(/working|completed/);
  // The foreign cancel changed nothing: the task completes for its owner.
  for (let i = 0; i < 50; i++) {
    const state = await post(userToken, 'tasks/get', { taskId }, taskId);
    if (state['result']?.['status'] === 'completed') return;
    expect(state['result']?.['status']).toBe('working');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the task never completed');
});

it("a token without sub whose client_id is the owner's subject cannot read or cancel the owner's task (issue 27)", async () => {
  const started = await post(userToken, 'tools/call', { name: 'report', arguments: {} }, 'report');
  const taskId = started['result']?.['taskId'] as string;
  expect(taskId, JSON.stringify(started)).toBeTypeOf('string');
  const now = Math.floor(Date.now() / 1000);
  const namesake = await server.as.sign({ iss: server.as.issuer, aud: server.url, client_id: 'user-1', scope: 'weather:read', iat: now, exp: now + 600 });
  for (const method of ['tasks/get', 'tasks/cancel']) {
    const foreign = await post(namesake, method, { taskId }, taskId);
    expect(foreign['error']?.['code'], `${method}: ${JSON.stringify(foreign)}`).toBe(-32602);
  }
  // Its own task it reads: the owner is that very token.
  const ownStart = await post(namesake, 'tools/call', { name: 'report', arguments: {} }, 'report');
  const ownId = ownStart['result']?.['taskId'] as string;
  expect(ownId, JSON.stringify(ownStart)).toBeTypeOf('string');
  expect((await post(namesake, 'tasks/get', { taskId: ownId }, ownId))['result']?.['status']).toMatch(/working|completed/);
  expect((await post(userToken, 'tasks/get', { taskId }, taskId))['result']?.['status']).toMatch(/working|completed/);
});
