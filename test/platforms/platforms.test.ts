/**
 * The weather server generated with the web target, deployed as users deploy it: on Bun
 * (`Bun.serve`), Deno (`deno serve`), Cloudflare's workerd (`workerd serve`, the engine under
 * wrangler), a Hono app under Node and a Next.js App Router route (`next build && next start`).
 * On each, our generated client, the official SDK 2.x client (2026-07-28, stateless) and, where the
 * platform keeps sessions, the SDK 1.x client (2025-11-25) list and call every weather tool. The
 * runtimes are pinned registry packages (test/platforms/package.json, scripts/platforms.mjs).
 */
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '../../scripts/platforms.mjs';
import { CLIENT_DIR, deploy, PLATFORMS, prepare, type Platform } from './harness.js';

/** Every weather tool with valid arguments, and what its structured result must hold. */
const CALLS = [
  { name: 'get_weather', method: 'getWeather', arguments: { location: 'Lisbon', units: 'celsius' }, expect: { location: 'Lisbon', units: 'celsius' } },
  { name: 'get_forecast', method: 'getForecast', arguments: { location: 'Oslo', days: 2 }, expect: { location: 'Oslo' } },
  // May run as a task; none of these clients asks for one, so it is a plain call.
  { name: 'climate_report', method: 'climateReport', arguments: { location: 'Lisbon', years: 2 }, expect: { location: 'Lisbon', years: 2 } },
] as const;
const TOOL_NAMES = CALLS.map((c) => c.name);
/** A page served from loopback: the web entry's default CORS allows such origins. */
const PAGE = 'http://localhost:5173';
/** What a 2026-07-28 request carries in `_meta` (no initialize: each request names its revision). */
const META_2026 = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'page', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** Platforms where a process lives between requests, so the stateful revisions keep sessions. */
const SESSIONS: Record<Platform, boolean> = { bun: true, deno: true, workerd: false, hono: true, next: true };

/** The parts of the generated weather client this file uses. */
interface WeatherClient {
  readonly server: { protocolVersion: string; serverInfo: { name?: string } | undefined };
  readonly tools: Record<string, (input: unknown) => Promise<unknown>>;
  listTools(): Promise<{ name: string }[]>;
  close(): Promise<void>;
}
interface WeatherClientModule {
  connect(options: { url: string; protocolVersions: readonly string[] }): Promise<WeatherClient>;
}

/** The part of both SDKs' clients the checks use. */
interface SdkClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function callEveryToolWithSdk(client: SdkClient): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  for (const call of CALLS) {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    expect([call.name, result['isError'] ?? false]).toEqual([call.name, false]);
    expect(result['structuredContent']).toMatchObject(call.expect);
  }
}

let ours: WeatherClientModule;

beforeAll(async () => {
  await prepare();
  ours = (await import(pathToFileURL(join(CLIENT_DIR, 'client.ts')).href)) as WeatherClientModule;
}, 600_000);

describe.each(PLATFORMS)('%s', (platform) => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await deploy(platform);
  }, 120_000);
  afterAll(async () => {
    await deployment?.stop();
  });

  /** Calls every tool with our client at `era`; the typed methods resolve with the validated structured results. */
  async function ourClientCallsEveryTool(era: string): Promise<void> {
    const client = await ours.connect({ url: deployment.url, protocolVersions: [era] });
    try {
      expect([client.server.protocolVersion, client.server.serverInfo?.name]).toEqual([era, 'weather']);
      expect((await client.listTools()).map((t) => t.name)).toEqual(TOOL_NAMES);
      for (const call of CALLS) {
        const method = client.tools[call.method];
        expect(method, call.method).toBeTypeOf('function');
        expect(await method?.(call.arguments)).toMatchObject(call.expect);
      }
    } finally {
      await client.close();
    }
  }

  it('our client (2026-07-28) calls every weather tool', async () => {
    await ourClientCallsEveryTool('2026-07-28');
  });

  it('the SDK 2.x client (2026-07-28, stateless) calls every weather tool', async () => {
    const client = new Sdk2Client({ name: 'platforms-sdk2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new Sdk2Http(new URL(deployment.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await callEveryToolWithSdk(client);
    await client.close();
  });

  it('CORS passes through the platform: a loopback page’s preflight is answered, its answers expose the MCP headers; another origin gets 403', async () => {
    const preflight = (origin: string) =>
      fetch(deployment.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-protocol-version' } });
    const allowed = await preflight(PAGE);
    expect([allowed.status, allowed.headers.get('access-control-allow-origin'), allowed.headers.get('access-control-allow-methods')]).toEqual([204, PAGE, 'GET, POST, DELETE']);
    const answer = await fetch(deployment.url, {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META_2026 } }),
    });
    expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-expose-headers')]).toEqual([
      200,
      PAGE,
      'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version',
    ]);
    const refused = await preflight('https://elsewhere.example');
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([403, null]);
  });

  if (SESSIONS[platform]) {
    it('the SDK 1.x client (2025-11-25, session) calls every weather tool', async () => {
      const client = new Sdk1Client({ name: 'platforms-sdk1', version: '1.0.0' });
      const transport = new Sdk1Http(new URL(deployment.url));
      await client.connect(transport);
      expect(transport.sessionId).toBeTruthy();
      expect(client.getServerVersion()?.name).toBe('weather');
      await callEveryToolWithSdk(client);
      await client.close();
    });

    it('our client (2025-11-25, session) calls every weather tool', async () => {
      await ourClientCallsEveryTool('2025-11-25');
    });
  } else {
    // Workers keep no process between requests: the stateful revisions get an answer that says so.
    it('the SDK 1.x client (2025-11-25) is told sessions need a process that lives between requests', async () => {
      const client = new Sdk1Client({ name: 'platforms-sdk1', version: '1.0.0' });
      await expect(client.connect(new Sdk1Http(new URL(deployment.url)))).rejects.toThrow(/serves 2026-07-28 only: sessions need a server process/);
    });

    it('our client (2025-11-25) is told the same', async () => {
      await expect(ours.connect({ url: deployment.url, protocolVersions: ['2025-11-25'] })).rejects.toThrow(/serves 2026-07-28 only/);
    });
  }
});
