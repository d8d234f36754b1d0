/**
 * Lists that change at run time (issue 14 item 1) and the server's identity from the definition
 * (item 7), over raw stdio in both eras: tools and prompts enabled, disabled and filtered per
 * request, with list and call agreeing and list changes announced by themselves; resources listed
 * by template handlers, paged and read; the subscribe/unsubscribe hooks; caching hints; bad
 * cursors and disabled names refused while the server keeps serving.
 */
import { describe, expect, it } from 'vitest';
import type { ListedResource, ServerDefinition, ServerHandlers } from '../../src/runtime/index.js';
import { handlers } from './fixtures/demo-server.js';
import { RawStdio, type Message } from './raw-stdio.js';
import { meta, statelessDefinition } from './stateless-support.js';

/** The demo server (7 tools, 3 per page) in both eras, announcing list changes, as a definition adjustment. */
function bothEras(definition: ServerDefinition): ServerDefinition {
  const stateless = statelessDefinition();
  return {
    ...definition,
    protocolVersions: stateless.protocolVersions,
    statelessValidators: stateless.statelessValidators!,
    capabilities: { ...definition.capabilities, tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
  };
}

let nextId = 0;
/**
 * A 2026-07-28 request over stdio: everything in its `_meta`. On stdio such requests are served
 * the stateless way only before an `initialize`, so they go over a second connection to the same server.
 */
function stateless(raw: RawStdio, method: string, params: Message = {}, extraMeta: Message = {}): Promise<Message> {
  return statelessConnection(raw).call(`s${++nextId}`, method, { ...params, _meta: meta({}, extraMeta) });
}
const second = new WeakMap<RawStdio, RawStdio>();
function statelessConnection(raw: RawStdio): RawStdio {
  let connection = second.get(raw);
  if (connection === undefined) {
    connection = new RawStdio(3, undefined, undefined, raw.server);
    second.set(raw, connection);
  }
  return connection;
}

/** Every name over every page of a list. */
async function allNames(raw: RawStdio, method: string, field: string, send: (params: Message) => Promise<Message>): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const answer = await send(cursor === undefined ? {} : { cursor });
    expect(answer['error'], `${method} failed`).toBeUndefined();
    for (const entry of answer['result'][field] as Message[]) names.push(entry['name'] ?? entry['uri']);
    cursor = answer['result']['nextCursor'];
  } while (cursor !== undefined);
  return names;
}

const statefulList = (raw: RawStdio, method: string, field: string) => allNames(raw, method, field, (params) => raw.call(`l${++nextId}`, method, params));
const statelessList = (raw: RawStdio, method: string, field: string) => allNames(raw, method, field, (params) => stateless(raw, method, params));

describe('tools enabled and disabled at run time', () => {
  it('leave both eras\' lists, are refused by tools/call with -32602, and announce the change by themselves', async () => {
    const raw = new RawStdio(3, bothEras);
    await raw.initialize('2025-11-25');
    const all = await statefulList(raw, 'tools/list', 'tools');
    expect(all).toContain('echo');

    raw.server.tools.disable('echo');
    await raw.waitFor((m) => m['method'] === 'notifications/tools/list_changed');
    expect(raw.server.tools.isEnabled('echo')).toBe(false);
    expect(await statefulList(raw, 'tools/list', 'tools')).toEqual(all.filter((n) => n !== 'echo'));
    expect(await statelessList(raw, 'tools/list', 'tools')).toEqual(all.filter((n) => n !== 'echo'));

    const refused = await raw.call('c1', 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(refused['error']).toEqual({ code: -32602, message: 'Tool echo is disabled' });
    const refusedStateless = await stateless(raw, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(refusedStateless['error']).toEqual({ code: -32602, message: 'Tool echo is disabled' });

    // Disabling twice announces nothing more; enabling brings it back, announced once more.
    const announced = () => raw.received.filter((m) => m['method'] === 'notifications/tools/list_changed').length;
    raw.server.tools.disable('echo');
    raw.server.tools.enable('echo');
    await raw.call('p1', 'ping');
    expect(announced()).toBe(2);
    expect(await statefulList(raw, 'tools/list', 'tools')).toEqual(all);
    const echoed = await raw.call('c2', 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(echoed['result']['content'][0]['text']).toBe('hi');
    await end(raw);
  });

  it('takes only names the manifest lists (at run time too), and changes nothing then', async () => {
    const raw = new RawStdio(3, bothEras);
    await raw.initialize('2025-11-25');
    expect(() => raw.server.tools.disable('nope' as string)).toThrow('No tool named "nope" in the manifest');
    expect(() => raw.server.prompts.enable('echo')).toThrow('No prompt named "echo" in the manifest');
    await raw.call('p', 'ping');
    expect(raw.received.some((m) => m['method'] === 'notifications/tools/list_changed')).toBe(false);
    expect(await statefulList(raw, 'tools/list', 'tools')).toHaveLength(7);
    await end(raw);
  });

  it('are filtered per request by a hook that sees the request context, in tools/list and tools/call alike', async () => {
    const raw = new RawStdio(3, bothEras);
    await raw.initialize('2025-11-25');
    const seen: unknown[] = [];
    raw.server.tools.setFilter((name, context) => {
      seen.push(context.protocolVersion);
      return name !== 'fail' || context.meta?.['x.example/role'] === 'admin';
    });
    const visitor = await allNames(raw, 'tools/list', 'tools', (params) => stateless(raw, 'tools/list', params));
    const admin = await allNames(raw, 'tools/list', 'tools', (params) => stateless(raw, 'tools/list', params, { 'x.example/role': 'admin' }));
    expect(visitor).not.toContain('fail');
    expect(admin).toContain('fail');
    expect(seen).toContain('2026-07-28');
    expect((await stateless(raw, 'tools/call', { name: 'fail', arguments: {} }))['error']).toEqual({
      code: -32602,
      message: 'Tool fail is not available to this request',
    });
    expect((await stateless(raw, 'tools/call', { name: 'fail', arguments: {} }, { 'x.example/role': 'admin' }))['result']['isError']).toBe(true);

    // A filter that throws hides what it was asked about, logs why, and the server goes on.
    raw.server.tools.setFilter(() => {
      throw new Error('flag service down');
    });
    expect(await statefulList(raw, 'tools/list', 'tools')).toEqual([]);
    expect(raw.serverLog.some((line) => line.includes('flag service down'))).toBe(true);
    raw.server.tools.setFilter(undefined);
    expect(await statefulList(raw, 'tools/list', 'tools')).toHaveLength(7);
    await end(raw);
  });
});

describe('prompts enabled and disabled at run time', () => {
  it('leave prompts/list, and prompts/get refuses them', async () => {
    const raw = new RawStdio(3, bothEras);
    await raw.initialize('2025-11-25');
    raw.server.prompts.disable('greet');
    await raw.waitFor((m) => m['method'] === 'notifications/prompts/list_changed');
    expect(await statefulList(raw, 'prompts/list', 'prompts')).toEqual([]);
    expect(await statelessList(raw, 'prompts/list', 'prompts')).toEqual([]);
    expect((await raw.call('g', 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }))['error']).toEqual({
      code: -32602,
      message: 'Prompt greet is disabled',
    });
    raw.server.prompts.enable('greet');
    expect((await raw.call('g2', 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }))['result']['messages']).toHaveLength(1);
    await end(raw);
  });
});

describe('list cursors', () => {
  it('from another list, made up or not strings, are refused with -32602 and the server keeps serving', async () => {
    const raw = new RawStdio(3, bothEras);
    await raw.initialize('2025-11-25');
    const first = await raw.call('t', 'tools/list', {});
    const toolsCursor = first['result']['nextCursor'] as string;
    expect(typeof toolsCursor).toBe('string');
    for (const [method, cursor] of [
      ['prompts/list', toolsCursor],
      ['resources/list', toolsCursor],
      ['resources/templates/list', toolsCursor],
      ['tools/list', Buffer.from('tools:-3').toString('base64url')],
      ['tools/list', toolsCursor + '!'],
    ] as const) {
      const answer = await raw.call(`bad-${method}-${cursor}`, method, { cursor });
      expect(answer['error']?.code, `${method} ${cursor}`).toBe(-32602);
      expect(answer['error']?.message).toBe(`Invalid cursor: it was not issued by this server's ${method}`);
    }
    // Also while the list is filtered (pages built per request), and in 2026-07-28.
    raw.server.tools.disable('echo');
    expect((await stateless(raw, 'prompts/list', { cursor: toolsCursor }))['error']?.code).toBe(-32602);
    expect((await raw.call('t2', 'tools/list', { cursor: toolsCursor }))['result']['tools']).toHaveLength(3);
    await end(raw);
  });
});

/** The demo server with `weather://{city}/current` listing its cities from a mutable set. */
function dynamicServer(cities: Set<string>, hooks: string[], options: { pageSize?: number; throwing?: boolean } = {}): RawStdio {
  const listed: ServerHandlers = {
    ...handlers,
    resourceLists: {
      'weather://{city}/current': (context) => {
        if (options.throwing === true) throw new Error('the city index is offline');
        const entries: ListedResource[] = [...cities].map((city) => ({ uri: `weather://${city}/current`, name: `${city} now`, mimeType: 'application/json' }));
        // Not readable through the template: left out of the list and logged.
        entries.push({ uri: 'elsewhere://x', name: 'stray' });
        return context.protocolVersion === '2026-07-28' ? Promise.resolve(entries) : entries;
      },
    },
    resourceSubscriptions: {
      subscribe: (uri) => void hooks.push(`watch ${uri}`),
      unsubscribe: (uri) => void hooks.push(`unwatch ${uri}`),
    },
  };
  return new RawStdio(options.pageSize ?? 2, (d) => ({ ...bothEras(d), listedTemplates: ['weather://{city}/current'] }), listed);
}

describe('resources listed by a template handler', () => {
  it('appear in resources/list after the static ones, paged, are read through the template, and change with the data', async () => {
    const cities = new Set(['Lisbon', 'Porto']);
    const raw = dynamicServer(cities, []);
    await raw.initialize('2025-11-25');
    expect(await statefulList(raw, 'resources/list', 'resources')).toEqual(['server-info', 'Lisbon now', 'Porto now']);
    expect(raw.serverLog.some((l) => l.includes('elsewhere://x'))).toBe(true);
    cities.add('Faro');
    raw.server.notify.resourcesChanged();
    await raw.waitFor((m) => m['method'] === 'notifications/resources/list_changed');
    expect(await statelessList(raw, 'resources/list', 'resources')).toEqual(['server-info', 'Lisbon now', 'Porto now', 'Faro now']);
    const read = await raw.call('r', 'resources/read', { uri: 'weather://Faro/current' });
    expect(JSON.parse(read['result']['contents'][0]['text'])).toEqual({ city: 'Faro' });
    await end(raw);
  });

  it('answer -32603 when the list handler throws, and the server keeps serving', async () => {
    const raw = dynamicServer(new Set(), [], { throwing: true });
    await raw.initialize('2025-11-25');
    expect((await raw.call('l', 'resources/list', {}))['error']).toEqual({ code: -32603, message: 'the city index is offline' });
    expect((await raw.call('p', 'ping'))['result']).toEqual({});
    await end(raw);
  });

  it('require a list handler for every listed template', () => {
    expect(() => new RawStdio(2, (d) => ({ ...d, listedTemplates: ['weather://{city}/current'] }))).toThrow('No list handler for resource template weather://{city}/current');
  });
});

describe('subscribe and unsubscribe hooks', () => {
  it('run for the first subscriber of a URI and when the last one leaves, across sessions and listen streams', async () => {
    const hooks: string[] = [];
    const raw = dynamicServer(new Set(['Lisbon']), hooks);
    await raw.initialize('2025-11-25');
    const uri = 'weather://Lisbon/current';
    await raw.call('s1', 'resources/subscribe', { uri });
    await raw.call('s2', 'resources/subscribe', { uri });
    expect(hooks).toEqual([`watch ${uri}`]);
    raw.server.notify.resourceUpdated(uri);
    expect((await raw.waitFor((m) => m['method'] === 'notifications/resources/updated'))['params']).toEqual({ uri });
    await raw.call('u1', 'resources/unsubscribe', { uri });
    expect(hooks).toEqual([`watch ${uri}`, `unwatch ${uri}`]);
    // A subscription the session still holds when it ends is released with it.
    await raw.call('s3', 'resources/subscribe', { uri });
    await end(raw);
    expect(hooks).toEqual([`watch ${uri}`, `unwatch ${uri}`, `watch ${uri}`, `unwatch ${uri}`]);
  });
});

describe('caching hints and identity from the definition', () => {
  it('send each list its ttlMs and cacheScope in 2026-07-28, and serverInfo fields and extensions only where the revision has them', async () => {
    const icons = [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }];
    const raw = new RawStdio(3, (d) => ({
      ...bothEras(d),
      serverInfo: { ...d.serverInfo, title: 'Demo', description: 'A demo', websiteUrl: 'https://example.com', icons },
      capabilities: { ...bothEras(d).capabilities, extensions: { 'com.example/feature': { level: 2 } } },
      caching: { tools: { ttlMs: 60_000, cacheScope: 'private' }, prompts: { ttlMs: 5, cacheScope: 'public' } },
    }));
    const list = await stateless(raw, 'tools/list');
    expect([list['result']['ttlMs'], list['result']['cacheScope']]).toEqual([60_000, 'private']);
    const prompts = await stateless(raw, 'prompts/list');
    expect([prompts['result']['ttlMs'], prompts['result']['cacheScope']]).toEqual([5, 'public']);
    const resources = await stateless(raw, 'resources/list');
    expect([resources['result']['ttlMs'], resources['result']['cacheScope']]).toEqual([0, 'public']);
    const discover = await stateless(raw, 'server/discover');
    expect(discover['result']['capabilities']['extensions']).toEqual({ 'com.example/feature': { level: 2 } });
    const identity = { name: 'runtime-demo', version: '1.0.0', title: 'Demo', description: 'A demo', websiteUrl: 'https://example.com', icons };
    expect(discover['result']['_meta']['io.modelcontextprotocol/serverInfo']).toEqual(identity);
    const init = await raw.initialize('2025-11-25');
    expect(init['result']['serverInfo']).toEqual(identity);
    expect(init['result']['capabilities']['extensions']).toBeUndefined();
    await end(raw);

    const older = new RawStdio(3, (d) => ({ ...d, serverInfo: { ...d.serverInfo, title: 'Demo', description: 'A demo', websiteUrl: 'https://example.com', icons } }));
    expect((await older.initialize('2025-06-18'))['result']['serverInfo']).toEqual({ name: 'runtime-demo', version: '1.0.0', title: 'Demo' });
    older.input.end();
    await older.done;
  });
});

async function end(raw: RawStdio): Promise<void> {
  raw.input.end();
  second.get(raw)?.input.end();
  await Promise.all([raw.done, second.get(raw)?.done]);
}
