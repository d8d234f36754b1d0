/**
 * The generated client's call surface (issue 14 item 6), with the weather example's client
 * (examples/client-app/client) against real servers: the weather server's own runtime (with
 * handlers that report what reached them, and three prompts listed one per page) and an official
 * SDK 2.x server that sends caching hints. Both eras; the interop matrix (test/matrix/rows-client.ts)
 * runs the same features over stdio and against the SDK 1.x server.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { McpServer as Sdk2Server, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connect, ListCache, OutputValidationError, type Client } from '../../examples/client-app/client/client.js';
import { createServer as createWeatherServer, definition } from '../../examples/weather/server/generated/server.js';
import { createServer as createRuntimeServer, type HttpListener } from '../../examples/weather/server/generated/runtime/index.js';
import type { ToolHandlers } from '../../examples/weather/server/generated/types.js';
import { handlers } from '../../examples/weather/server/handlers/index.js';
import { checkWith, generate, repoRoot } from './support.js';

const ERAS = ['2026-07-28', '2025-11-25'] as const;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** What reached get_weather: its request's `_meta` and the client's declared extensions. */
const seen: { meta: unknown; extensions: unknown }[] = [];

const getWeather: ToolHandlers['get_weather'] = async (input, context) => {
  seen.push({ meta: context.meta, extensions: context.clientCapabilities['extensions'] });
  for (const level of ['info', 'warning', 'error'] as const) await context.log(level, { level }, 'surface');
  if (input.location === 'announce') context.notify.toolsChanged();
  if (input.location === 'update') context.notify.resourceUpdated('weather://stations');
  return handlers.tools.get_weather(input, context);
};

let ours: HttpListener;

beforeAll(async () => {
  const plan = definition.prompts[0] as { name: string };
  const planOuting = handlers.prompts.plan_outing;
  const stations = definition.resources[0] as { uri: string };
  const station = definition.resourceTemplates[0] as { uriTemplate: string };
  const server = createRuntimeServer(
    {
      ...definition,
      // One item per page: listPrompts must walk three pages.
      pageSize: 1,
      capabilities: { ...definition.capabilities, tools: { listChanged: true }, resources: { subscribe: true } },
      prompts: [plan, { ...plan, name: 'plan_picnic' }, { ...plan, name: 'plan_swim' }],
      resources: [stations, { ...stations, uri: 'weather://archive', name: 'archive' }],
      resourceTemplates: [station, { ...station, uriTemplate: 'weather://archive/{id}', name: 'archived_station' }],
    },
    {
      tools: { ...handlers.tools, get_weather: getWeather },
      prompts: { plan_outing: planOuting, plan_picnic: planOuting, plan_swim: planOuting },
      resources: { ...handlers.resources, 'weather://archive': handlers.resources['weather://stations'] },
      resourceTemplates: { ...handlers.resourceTemplates, 'weather://archive/{id}': handlers.resourceTemplates['weather://stations/{id}'] },
      resourceLists: handlers.resourceLists,
    } as typeof handlers,
    { logger: () => {} },
  );
  ours = await server.listenHttp({ port: 0, host: '127.0.0.1' });
});
afterAll(() => ours?.close());

describe.each(ERAS)('against our server at %s', (era) => {
  let client: Client;
  const logs: { level: string; data: unknown }[] = [];
  beforeAll(async () => {
    client = await connect({
      url: ours.url,
      protocolVersions: [era],
      onLog: (message) => logs.push({ level: message.level, data: message.data }),
      extensions: { 'com.example/surface': { tier: 'gold' } },
    });
  });
  afterAll(() => client?.close());

  it('puts per-call _meta (traceparent, vendor keys) on the request, and only that request', async () => {
    seen.length = 0;
    await client.tools.getWeather({ location: 'Lisbon' }, { _meta: { traceparent: TRACEPARENT, 'com.example/tag': 'x' } });
    await client.tools.getWeather({ location: 'Lisbon' });
    expect(seen[0]?.meta).toMatchObject({ traceparent: TRACEPARENT, 'com.example/tag': 'x' });
    expect(seen[1]?.meta ?? {}).not.toHaveProperty('traceparent');
    if (era === '2026-07-28') {
      // The runtime's own keys are still there, and win over the app's.
      await client.tools.getWeather({ location: 'Lisbon' }, { _meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } });
      expect(seen[2]?.meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': era });
    }
  });

  it('declares capabilities.extensions', async () => {
    seen.length = 0;
    await client.tools.getWeather({ location: 'Lisbon' });
    expect(seen[0]?.extensions).toEqual({ 'com.example/surface': { tier: 'gold' } });
  });

  it('asks for log messages per call and delivers them to onLog', async () => {
    logs.length = 0;
    await client.tools.getWeather({ location: 'Lisbon' }, { logLevel: 'warning' });
    expect(logs).toEqual([
      { level: 'warning', data: { level: 'warning' } },
      { level: 'error', data: { level: 'error' } },
    ]);
    logs.length = 0;
    await client.tools.getWeather({ location: 'Lisbon' }, { logLevel: 'error' });
    expect(logs).toEqual([{ level: 'error', data: { level: 'error' } }]);
    logs.length = 0;
    await client.setLogLevel('info');
    await client.tools.getWeather({ location: 'Lisbon' });
    expect(logs.map((l) => l.level)).toEqual(['info', 'warning', 'error']);
  });

  it('gives the whole validated result with .full, an isError result included', async () => {
    const full = await client.tools.getWeather.full({ location: 'Lisbon', units: 'celsius' });
    expect(full.isError).not.toBe(true);
    if (full.isError !== true) {
      // Typed as the tool's output: no cast needed.
      const celsius: 'celsius' | 'fahrenheit' = full.structuredContent.units;
      expect(celsius).toBe('celsius');
    }
    expect(full.content.length).toBeGreaterThan(0);
    expect(full.content[0]).toMatchObject({ type: 'text' });
    const refused = await client.tools.getWeather.full({ location: '' });
    expect(refused.isError).toBe(true);
    expect(refused.content.length).toBeGreaterThan(0);
  });

  it('lists every prompt, tool, resource and template across pages (one item per page)', async () => {
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['plan_outing', 'plan_picnic', 'plan_swim']);
    expect((await client.listTools()).map((t) => t.name)).toEqual(['get_weather', 'get_forecast', 'climate_report']);
    // The static resources, then the stations the weather example lists at run time (its list handler).
    expect((await client.resources.list()).map((r) => r.uri)).toEqual(['weather://stations', 'weather://archive', 'weather://stations/lis', 'weather://stations/osl', 'weather://stations/sgp']);
    expect((await client.resources.listTemplates()).map((t) => t.uriTemplate)).toEqual(['weather://stations/{id}', 'weather://archive/{id}']);
  });

  it('listens for a tool-list change until stopped', async () => {
    const heard: string[] = [];
    const stop = await client.listen({ toolsListChanged: true }, (change) => heard.push(change.method));
    await client.tools.getWeather({ location: 'announce' });
    await until(() => heard.length > 0);
    expect(heard).toEqual(['notifications/tools/list_changed']);
    await stop();
    await client.tools.getWeather({ location: 'announce' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toHaveLength(1);
  });

  it('follows updates of the resources it names until stopped (resources/subscribe when stateful)', async () => {
    const heard: string[] = [];
    const stop = await client.listen({ resourceSubscriptions: ['weather://stations'] }, (change) => heard.push(`${change.method} ${String(change.params['uri'])}`));
    await client.tools.getWeather({ location: 'update' });
    await until(() => heard.length > 0);
    expect(heard).toEqual(['notifications/resources/updated weather://stations']);
    await stop();
    await client.tools.getWeather({ location: 'update' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toHaveLength(1);
  });

  it(era === '2026-07-28' ? 'refuses ping, naming the revision' : 'pings', async () => {
    if (era === '2026-07-28') await expect(client.ping()).rejects.toThrow('ping does not exist in protocol revision 2026-07-28');
    else await expect(client.ping()).resolves.toBeUndefined();
  });

  it('keeps nothing in the list cache when the server says ttlMs 0 (or, stateful, nothing)', async () => {
    const cache = new ListCache();
    const cached = await connect({ url: ours.url, protocolVersions: [era], listCache: cache });
    try {
      // Two tools, one per page: listTools walks both pages too.
      expect((await cached.listTools()).map((t) => t.name)).toEqual(['get_weather', 'get_forecast', 'climate_report']);
      expect(cache.size).toBe(0);
    } finally {
      await cached.close();
    }
  });
});

describe('listen against a server that offers nothing to listen to (the weather server as generated)', () => {
  it('rejects with the server\'s own refusal at 2026-07-28 and leaves the client usable', async () => {
    const listener = await createWeatherServer(handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
    const client = await connect({ url: listener.url, protocolVersions: ['2026-07-28'] });
    try {
      await expect(client.listen({ toolsListChanged: true }, () => {})).rejects.toMatchObject({ code: -32601 });
      expect((await client.tools.getWeather({ location: 'Lisbon' })).location).toBe('Lisbon');
    } finally {
      await client.close();
      await listener.close();
    }
  });
});

describe('full results against a server whose output breaks the schema', () => {
  it('rejects .full with OutputValidationError, as the plain method does', async () => {
    const client = await connect({ command: process.execPath, args: [join(repoRoot, 'test/client/fixtures/lying-server.mjs')], stderr: 'ignore', shutdownGraceMs: 300 });
    try {
      await expect(client.tools.getWeather.full({ location: 'Lisbon' })).rejects.toBeInstanceOf(OutputValidationError);
    } finally {
      await client.close();
    }
  });
});

describe('the list cache against an SDK 2.x server sending caching hints (2026-07-28)', () => {
  const requests = new Map<string, number>();
  let http: Server;
  let url: string;
  let notifyToolsChanged: () => void;
  const count = (method: string): number => requests.get(method) ?? 0;

  beforeAll(async () => {
    const handler = createMcpHandler(() => {
      const server = new Sdk2Server(
        { name: 'cache-sdk2', version: '2.0.0' },
        {
          capabilities: { tools: { listChanged: true }, prompts: {} },
          cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' }, 'prompts/list': { ttlMs: 60_000, cacheScope: 'private' } },
        },
      );
      server.registerTool('noop', { inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
      server.registerPrompt('hello', { argsSchema: z.object({}) }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }));
      return server;
    });
    notifyToolsChanged = () => handler.notify.toolsChanged();
    const node = toNodeHandler(handler);
    http = createHttpServer((req, res) => {
      const method = req.headers['mcp-method'];
      if (typeof method === 'string') requests.set(method, count(method) + 1);
      // A server request always has a method; the SDK's type says so, Node's does not.
      void node(req as Parameters<typeof node>[0], res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it('serves a fresh page from the cache and fetches again once ttlMs has passed', async () => {
    let now = 1_000;
    const cache = new ListCache({ now: () => now });
    const client = await connect({ url, listCache: cache });
    try {
      const before = count('tools/list');
      expect((await client.listTools()).map((t) => t.name)).toEqual(['noop']);
      expect((await client.listTools()).map((t) => t.name)).toEqual(['noop']);
      expect(count('tools/list') - before).toBe(1);
      now += 60_000;
      await client.listTools();
      expect(count('tools/list') - before).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('without a cache, every list goes to the server', async () => {
    const client = await connect({ url });
    try {
      const before = count('tools/list');
      await client.listTools();
      await client.listTools();
      expect(count('tools/list') - before).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('shares public pages between connections, private pages only within one authorization context', async () => {
    const cache = new ListCache();
    const first = await connect({ url, listCache: cache });
    const second = await connect({ url, listCache: cache });
    const sameUser = await connect({ url, listCache: cache, cacheContext: 'user-1' });
    const sameUserAgain = await connect({ url, listCache: cache, cacheContext: 'user-1' });
    try {
      const tools = count('tools/list');
      const prompts = count('prompts/list');
      await first.listTools();
      await second.listTools();
      expect(count('tools/list') - tools).toBe(1);
      await first.listPrompts();
      await second.listPrompts();
      expect(count('prompts/list') - prompts).toBe(2);
      await sameUser.listPrompts();
      await sameUserAgain.listPrompts();
      expect(count('prompts/list') - prompts).toBe(3);
    } finally {
      for (const client of [first, second, sameUser, sameUserAgain]) await client.close();
    }
  });

  it('drops a cached list when the server says it changed', async () => {
    const client = await connect({ url, listCache: true });
    try {
      const heard: string[] = [];
      const stop = await client.listen({ toolsListChanged: true }, (change) => heard.push(change.method));
      const before = count('tools/list');
      await client.listTools();
      await client.listTools();
      expect(count('tools/list') - before).toBe(1);
      notifyToolsChanged();
      await until(() => heard.length > 0);
      await client.listTools();
      expect(count('tools/list') - before).toBe(2);
      await stop();
    } finally {
      await client.close();
    }
  });
});

describe('types of the call surface', () => {
  it('types .full, _meta, logLevel, listen and leaves ping uncallable on a 2026-07-28-only client', async () => {
    const { dir, run } = await generate(['examples/weather/manifest.yaml']);
    expect(run.code, run.err).toBe(0);
    const diagnostics = checkWith(dir, {
      'usage.ts': [
        "import { connect, type Client, type FullResult } from './client/client.js';",
        'export async function use(a: Client<"2026-07-28">, b: Client<"2025-11-25">): Promise<void> {',
        "  const full = await a.tools.getWeather.full({ location: 'x' }, { _meta: { traceparent: 't' }, logLevel: 'debug' });",
        '  if (full.isError !== true) { const t: number = full.structuredContent.temperature; void t; }',
        '  const whole: FullResult<unknown> = full; void whole;',
        '  // @ts-expect-error: 2026-07-28 has no ping',
        '  await a.ping();',
        '  await b.ping();',
        "  // @ts-expect-error: not a log level",
        "  await b.tools.getWeather({ location: 'x' }, { logLevel: 'loud' });",
        "  const stop = await a.listen({ toolsListChanged: true, resourceSubscriptions: ['weather://stations'] }, (change) => void change.method);",
        '  await stop();',
        "  const prompts = await b.listPrompts(); void prompts[0]?.name;",
        "  await connect({ url: 'http://x', extensions: { 'com.example/x': {} }, listCache: true, onLog: (m) => void m.level });",
        '}',
      ].join('\n'),
    });
    expect(diagnostics).toEqual([]);
  }, 60_000);
});

async function until(condition: () => boolean, ms = 3000): Promise<void> {
  for (const deadline = Date.now() + ms; !condition(); ) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
