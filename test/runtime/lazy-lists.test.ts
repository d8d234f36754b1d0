/**
 * Start-up work the runtime leaves for later (issue 16 item 5): list pages are serialized when a
 * client first asks for them, and a definition may hand its tools over as JSON texts
 * (`toolTexts`, what generated servers do), served as they are and parsed only when something
 * needs the object: the stateful view of a non-object outputSchema, a tool's validators loading,
 * its `x-mcp-header` annotations on its first 2026-07-28 call over HTTP.
 */
import { describe, expect, it, vi } from 'vitest';
import type { JsonObject, ServerDefinition, ToolText, Validator } from '../../src/runtime/api.js';
import { createServer } from '../../src/runtime/index.js';
import { RawStdio, type Message } from './raw-stdio.js';
import { call, meta, statelessDefinition, statelessHandlers } from './stateless-support.js';

/** Every page of `tools/list`, following the cursors. */
async function allPages(send: (params: Message) => Promise<Message>): Promise<Message[]> {
  const pages: Message[] = [];
  let cursor: string | undefined;
  do {
    const answer = await send(cursor === undefined ? {} : { cursor });
    expect(answer['error']).toBeUndefined();
    pages.push(answer['result']);
    cursor = answer['result']['nextCursor'];
  } while (cursor !== undefined);
  return pages;
}

/** The definition with its tools as texts: each a `ToolText` with its binding and facts. */
function asTexts(definition: ServerDefinition, text: (tool: JsonObject) => string = (tool) => JSON.stringify(tool)): ServerDefinition {
  const toolTexts = definition.tools.map((tool): ToolText => {
    const name = tool['name'] as string;
    const output = tool['outputSchema'] as JsonObject | undefined;
    const support = (tool['execution'] as JsonObject | undefined)?.['taskSupport'];
    return {
      ...definition.toolBindings[name]!,
      text: text(tool),
      ...(support === 'optional' || support === 'required' ? { taskSupport: support } : {}),
      ...(output !== undefined && output['type'] !== 'object' ? { objectOutput: false as const } : {}),
    };
  });
  return { ...definition, tools: [], toolBindings: {}, toolTexts };
}

/** The tool's validators loaded on its first call, as generated servers' are. */
function loadingLater(tool: ToolText): ToolText {
  const { validateInput, validateOutput, ...rest } = tool as ToolText & { validateInput: Validator<unknown>; validateOutput?: Validator<unknown> };
  return { ...rest, load: () => Promise.resolve({ validateInput, ...(validateOutput === undefined ? {} : { validateOutput }) }) };
}

describe('list pages serialized on first demand', () => {
  it('serializes no tools/list page before a client asks for it, each once, then serves it as kept', async () => {
    const serialized: string[] = [];
    // Counts each serialization of an entry (non-enumerable, so the entry's own members are unchanged).
    const counting = (definition: ServerDefinition): ServerDefinition => ({
      ...definition,
      tools: definition.tools.map((tool) => {
        const copy = { ...tool };
        Object.defineProperty(copy, 'toJSON', { value: () => (serialized.push(tool['name'] as string), tool) });
        return copy;
      }),
    });
    const raw = new RawStdio(3, counting);
    expect(serialized).toEqual([]);
    await raw.initialize();
    expect(serialized).toEqual([]);

    const first = await raw.call(1, 'tools/list', {});
    const firstNames = (first['result']['tools'] as Message[]).map((t) => t['name']);
    expect(firstNames).toHaveLength(3);
    expect(serialized).toEqual(firstNames);
    await raw.call(2, 'tools/list', {});
    expect(serialized).toEqual(firstNames);

    const second = await raw.call(3, 'tools/list', { cursor: first['result']['nextCursor'] });
    const secondNames = (second['result']['tools'] as Message[]).map((t) => t['name']);
    expect(serialized).toEqual([...firstNames, ...secondNames]);
    await raw.call(4, 'tools/list', { cursor: first['result']['nextCursor'] });
    expect(serialized).toEqual([...firstNames, ...secondNames]);
    raw.input.end();
    await raw.done;
  });
});

describe('tools handed over as texts (toolTexts)', () => {
  it('lists the same pages in both eras as the same tools handed over as objects', async () => {
    const objects = new RawStdio(2, () => statelessDefinition(), statelessHandlers);
    const texts = new RawStdio(2, () => asTexts(statelessDefinition()), statelessHandlers);
    for (const raw of [objects, texts]) await raw.initialize();
    let id = 0;
    const stateful = (raw: RawStdio) => allPages((params) => raw.call(++id, 'tools/list', params));
    // A second connection without initialize speaks 2026-07-28 (everything in `_meta`).
    const stateless = (raw: RawStdio) => {
      const connection = new RawStdio(2, undefined, undefined, raw.server);
      return allPages((params) => connection.call(++id, 'tools/list', { ...params, _meta: meta() }));
    };
    const statefulPages = await stateful(texts);
    expect(statefulPages).toEqual(await stateful(objects));
    const statelessPages = await stateless(texts);
    expect(statelessPages).toEqual(await stateless(objects));
    // The array outputSchema only 2026-07-28 can express: left out of the stateful list, kept in the other.
    const cities = (pages: Message[]) => pages.flatMap((p) => p['tools'] as Message[]).find((t) => t['name'] === 'cities')!;
    expect(cities(statefulPages)).not.toHaveProperty('outputSchema');
    expect(cities(statelessPages)['outputSchema']).toEqual({ type: 'array', items: { type: 'string' } });

    // Disabled and filtered out the same way: the pages are then cut per request from the texts.
    for (const raw of [objects, texts]) {
      raw.server.tools.disable('echo');
      raw.server.tools.setFilter((name) => name !== 'cities');
    }
    const restricted = await stateful(texts);
    expect(restricted).toEqual(await stateful(objects));
    expect(await stateless(texts)).toEqual(await stateless(objects));
    const names = restricted.flatMap((p) => p['tools'] as Message[]).map((t) => t['name']);
    expect(names).not.toContain('echo');
    expect(names).not.toContain('cities');
    expect(names.length).toBe(statefulPages.flatMap((p) => p['tools'] as Message[]).length - 2);
  });

  it('starts, and lists in both eras, without parsing a text but the one the stateful list must change', async () => {
    const texts = asTexts(statelessDefinition());
    const definition = { ...texts, toolTexts: texts.toolTexts!.map(loadingLater) };
    const names = new Map(definition.toolTexts!.map((tool) => [tool.text, tool.name]));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const parsedTexts = () => parse.mock.calls.flatMap(([text]) => names.get(text as string) ?? []);
      const raw = new RawStdio(100, () => definition, statelessHandlers);
      // Nothing at start: no page, no tasks facts, no x-mcp-header index read from a text.
      expect(parsedTexts()).toEqual([]);
      await raw.initialize();
      await raw.call(1, 'tools/list', {});
      // The stateful list leaves out the array outputSchema of `cities`: that entry alone is read.
      expect(parsedTexts()).toEqual(['cities']);
      const stateless = new RawStdio(100, undefined, undefined, raw.server);
      await stateless.call(2, 'tools/list', { _meta: meta() });
      expect(parsedTexts()).toEqual(['cities']);
    } finally {
      parse.mockRestore();
    }
  });

  it('serves each text as it is, without parsing and serializing it again', async () => {
    // A space JSON.stringify would never write: it reaches the wire only if the text is copied.
    const spaced = (tool: JsonObject) => JSON.stringify(tool).replace(/^\{"name":/, '{"name": ');
    const raw = new RawStdio(100, () => asTexts(statelessDefinition(), spaced), statelessHandlers);
    const lines: string[] = [];
    raw.output.on('data', (chunk: string) => lines.push(chunk));
    await raw.initialize();
    const answer = await raw.call(1, 'tools/list', {});
    expect((answer['result']['tools'] as Message[]).map((t) => t['name'])).toContain('echo');
    expect(lines.join('')).toContain('{"name": "echo"');
  });

  it('calls tools, loading validators held to the text, and checks x-mcp-header on 2026-07-28 over HTTP', async () => {
    const definition = asTexts(statelessDefinition());
    const texts = definition.toolTexts!.map(loadingLater);
    const listener = await createServer({ ...definition, toolTexts: texts }, statelessHandlers, { logger: () => {} }).listenHttp({});
    try {
      const params = { name: 'region', arguments: { region: 'eu', count: 42 }, _meta: meta() };
      const missing = await call(listener.url, 'tools/call', params, { headers: { 'mcp-param-region': 'eu' } });
      expect([missing.status, missing.body.error?.code]).toEqual([400, -32020]);
      const good = await call(listener.url, 'tools/call', params, { headers: { 'mcp-param-region': 'eu', 'mcp-param-count': '42' } });
      expect([good.status, good.body.result?.content?.[0]?.text]).toEqual([200, 'region eu']);
      const structured = await call(listener.url, 'tools/call', { name: 'cities', arguments: {}, _meta: meta() });
      expect(structured.body.result?.structuredContent).toEqual(['Tokyo', 'Delhi']);
    } finally {
      await listener.close();
    }
  });

  it('refuses a definition that gives tools in both forms, or a text without its facts right', () => {
    const both = { ...asTexts(statelessDefinition()), tools: statelessDefinition().tools };
    expect(() => createServer(both, statelessHandlers)).toThrow(/either in `tools` and `toolBindings` or in `toolTexts`/);
    const texts = asTexts(statelessDefinition());
    const badSupport = { ...texts, toolTexts: [{ ...texts.toolTexts![0]!, taskSupport: 'always' as never }] };
    expect(() => createServer(badSupport, statelessHandlers)).toThrow(/taskSupport must be "optional" or "required"/);
  });
});
