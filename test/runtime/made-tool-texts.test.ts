/**
 * A `ToolText` whose `text` is a function (issue 42 item 1: what a generated server with a
 * tool-definitions.ts gives): the runtime calls it when a `tools/list` page first needs the entry,
 * once, and serves what it returns as it is, in both eras and whether the list is restricted or not.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject, ServerDefinition, ToolText, ToolValidators } from '../../src/runtime/api.js';
import { createServer } from '../../src/runtime/index.js';
import { RawStdio, type Message } from './raw-stdio.js';
import { meta, statelessDefinition, statelessHandlers } from './stateless-support.js';

/** The definition's tools as texts; `text` wraps each tool's JSON (a string, or a function returning it). */
function withTexts(definition: ServerDefinition, text: (tool: JsonObject, json: string) => ToolText['text']): ServerDefinition {
  const toolTexts = definition.tools.map((tool): ToolText => {
    const name = tool['name'] as string;
    const output = tool['outputSchema'] as JsonObject | undefined;
    const support = (tool['execution'] as JsonObject | undefined)?.['taskSupport'];
    // Validators loaded on the tool's first call, as generated servers' are (eager ones are checked against the entry at start).
    const { validateInput, validateOutput } = definition.toolBindings[name] as ToolValidators;
    return {
      name,
      load: () => Promise.resolve({ validateInput, ...(validateOutput === undefined ? {} : { validateOutput }) }),
      text: text(tool, JSON.stringify(tool)),
      ...(support === 'optional' || support === 'required' ? { taskSupport: support } : {}),
      ...(output !== undefined && output['type'] !== 'object' ? { objectOutput: false as const } : {}),
    };
  });
  return { ...definition, tools: [], toolBindings: {}, toolTexts };
}

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

describe('tool texts made by a function', () => {
  it('makes no text before a page needs it, each once, and lists what the same texts as strings list', async () => {
    const made: string[] = [];
    // A space JSON.stringify would never write: it reaches the wire only if the made text is served as it is.
    const spaced = (json: string) => json.replace(/^\{"name":/, '{"name": ');
    const lazy = (definition: ServerDefinition) =>
      withTexts(definition, (tool, json) => () => {
        made.push(tool['name'] as string);
        return spaced(json);
      });
    const raw = new RawStdio(2, () => lazy(statelessDefinition()), statelessHandlers);
    const strings = new RawStdio(2, () => withTexts(statelessDefinition(), (_tool, json) => spaced(json)), statelessHandlers);
    const lines: string[] = [];
    raw.output.on('data', (chunk: string) => lines.push(chunk));
    await raw.initialize();
    await strings.initialize();
    expect(made).toEqual([]);

    let id = 0;
    const first = await raw.call(++id, 'tools/list', {});
    const firstNames = (first['result']['tools'] as Message[]).map((t) => t['name']);
    expect(made).toEqual(firstNames);
    expect(lines.join('')).toContain(`{"name": ${JSON.stringify(firstNames[0])}`);
    await raw.call(++id, 'tools/list', {});
    expect(made).toEqual(firstNames);

    const pages = await allPages((params) => raw.call(++id, 'tools/list', params));
    expect(pages).toEqual(await allPages((params) => strings.call(++id, 'tools/list', params)));
    const names = pages.flatMap((page) => (page['tools'] as Message[]).map((t) => t['name']));
    // Each entry made once, whatever was asked since; the stateful view of `cities` was made from its text.
    expect([...made].sort()).toEqual([...names, 'cities'].filter((n, i, all) => all.indexOf(n) === i).sort());
    expect(made).toHaveLength(new Set(made).size);

    // 2026-07-28 and a restricted list are served from the same made texts.
    const stateless = new RawStdio(2, undefined, undefined, raw.server);
    const statelessPages = await allPages((params) => stateless.call(++id, 'tools/list', { ...params, _meta: meta() }));
    const stringsStateless = new RawStdio(2, undefined, undefined, strings.server);
    expect(statelessPages).toEqual(await allPages((params) => stringsStateless.call(++id, 'tools/list', { ...params, _meta: meta() })));
    raw.server.tools.disable('echo');
    strings.server.tools.disable('echo');
    expect(await allPages((params) => raw.call(++id, 'tools/list', params))).toEqual(await allPages((params) => strings.call(++id, 'tools/list', params)));
    expect(made).toHaveLength(new Set(made).size);
  });

  it('refuses a text that is neither JSON nor a function', () => {
    const definition = withTexts(statelessDefinition(), (_tool, json) => json);
    const bad = { ...definition, toolTexts: [{ ...definition.toolTexts![0]!, text: 42 as never }] };
    expect(() => createServer(bad, statelessHandlers)).toThrow(/"text" must be its tools\/list entry as JSON, or a function that returns it/);
  });
});
