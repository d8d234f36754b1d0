/**
 * Both protocol eras against the committed weather example, built as a user would: the official
 * SDK 1.x client (2025-11-25, sessions) and the official 2.x client in its modern mode (pinned to
 * 2026-07-28, stateless) call every tool on the same HTTP endpoint, and the 2.x client also over
 * stdio. A fetch wrapper captures the 2.x client's Mcp-Method/Mcp-Name headers and then alters one,
 * which the server refuses.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, repoRoot, startHttpServer, tempDir } from './support.js';

const work = tempDir('interop-eras');
const running: ChildProcess[] = [];
let main: string;
let url: URL;

/** Every tool of the weather example with valid arguments, and what its structured result holds. */
const CALLS = [
  { name: 'get_weather', arguments: { location: 'Lisbon', units: 'celsius' }, expect: { location: 'Lisbon', units: 'celsius' } },
  { name: 'get_forecast', arguments: { location: 'Oslo', days: 2 }, expect: { location: 'Oslo' } },
  // May run as a task, but these clients do not ask (2025-11-25) or declare the extension (2026-07-28): a plain call.
  { name: 'climate_report', arguments: { location: 'Lisbon', years: 2 }, expect: { location: 'Lisbon', years: 2 } },
];

interface Captured {
  method: string | null;
  name: string | null;
  version: string | null;
  session: string | null;
  status: number;
}
const captured: Captured[] = [];
/** When set, rewrites the next request's headers (to show the server checks them). */
let tamper: ((headers: Headers) => void) | undefined;

const capturingFetch: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  if (tamper !== undefined) {
    tamper(headers);
    tamper = undefined;
  }
  const response = await fetch(input, { ...init, headers });
  captured.push({
    method: headers.get('mcp-method'),
    name: headers.get('mcp-name'),
    version: headers.get('mcp-protocol-version'),
    session: headers.get('mcp-session-id'),
    status: response.status,
  });
  return response;
};

beforeAll(async () => {
  main = build(join(repoRoot, 'examples', 'weather', 'server'), join(work, 'build'));
  url = await startHttpServer(main, running);
}, 300_000);

afterAll(() => {
  for (const child of running) child.kill();
  rmSync(work, { recursive: true, force: true });
});

function modernClient(): ModernClient {
  return new ModernClient({ name: 'mcp-gen-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

/** The part of both SDKs' clients the checks use. */
interface ToolClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
}

async function callEveryTool(client: ToolClient): Promise<void> {
  for (const call of CALLS) {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    expect([call.name, result['isError'] ?? false]).toEqual([call.name, false]);
    expect(result['structuredContent']).toMatchObject(call.expect);
  }
}

async function listAndCallEveryTool(client: ToolClient): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(CALLS.map((c) => c.name));
  await callEveryTool(client);
}

describe('one endpoint, both eras', () => {
  it('SDK 1.x (2025-11-25, session) calls every tool', async () => {
    const client = new LegacyClient({ name: 'mcp-gen-legacy', version: '1.0.0' });
    const transport = new LegacyHttpTransport(url);
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('weather');
    expect(transport.sessionId).toBeTruthy();
    await listAndCallEveryTool(client);
    await client.close();
  });

  it('client 2.x in modern mode (2026-07-28, stateless) calls every tool over HTTP, sending Mcp-Method and Mcp-Name', async () => {
    const client = modernClient();
    await client.connect(new ModernHttpTransport(url, { fetch: capturingFetch }));
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await listAndCallEveryTool(client);
    const calls = captured.filter((c) => c.method === 'tools/call');
    expect(calls.map((c) => [c.name, c.version, c.session, c.status])).toEqual(CALLS.map((c) => [c.name, '2026-07-28', null, 200]));
    expect(captured.every((c) => c.method !== null)).toBe(true);

    // The server checks what the client sent: a Mcp-Name that disagrees with the body gets 400
    // (-32020); the 2.x client then refreshes its tool list and retries with the right header.
    const before = captured.length;
    tamper = (headers) => headers.set('mcp-name', 'get_forecast');
    const retried = await client.callTool({ name: 'get_weather', arguments: { location: 'Lisbon' } });
    expect(retried.structuredContent).toMatchObject({ location: 'Lisbon' });
    expect(captured.slice(before).map((c) => [c.method, c.name, c.status])).toEqual([
      ['tools/call', 'get_forecast', 400],
      ['tools/list', null, 200],
      ['tools/call', 'get_weather', 200],
    ]);
    await client.close();
  });

  it('client 2.x in modern mode calls every tool over stdio', async () => {
    const client = modernClient();
    await client.connect(new ModernStdioTransport({ command: process.execPath, args: [main], stderr: 'pipe' }));
    expect(client.getProtocolEra()).toBe('modern');
    await callEveryTool(client);
    await client.close();
  });
});
